package dev.palimpsest.model;

/**
 * Thrown when a fact, commit or store does not exist where the caller looked for it.
 *
 * <p>Checked, and staying checked: it is a {@link PalimpsestException}, the root a caller catches to
 * handle every outcome it can act on (the CLI and the MCP server map it to their exit codes and
 * error kinds), and making it unchecked would silently take it out of such catches. A caller that
 * expects absence asks a form that cannot throw it: {@code Store.find(id)} answers an {@code
 * Optional}, so {@code ids.stream().map(store::find)} compiles, and the reads without a commit
 * (answered at the tip of main) throw it only for a fact never written.
 *
 * <p>Immutable once thrown and safe to share between threads; the message names what was looked for.
 */
public class NotFoundException extends PalimpsestException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String message) {
        super(message);
    }
}
