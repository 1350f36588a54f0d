package dev.palimpsest.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * Every {@link McpServerTest} scenario again, run by failsafe after {@code package} against the
 * shipped artifact: the client starts {@code java -jar target/palimpsest.jar mcp}.
 */
class McpServerIT extends McpServerTest {

    @BeforeAll
    void theJarIsTheServer() {
        String jar = System.getProperty("palimpsest.jar");
        assertThat(jar).as("failsafe names the runnable jar").isNotNull();
        assertThat(Files.isRegularFile(Path.of(jar))).as(jar).isTrue();
    }
}
