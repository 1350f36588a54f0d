package dev.palimpsest.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The escaper every page's text and attribute values go through. */
class HtmlTest {
    @Test
    void markupCharactersBecomeCharacterReferences() {
        assertThat(Html.escape("<script>a && b</script> \"x\" 'y'"))
                .isEqualTo("&lt;script&gt;a &amp;&amp; b&lt;/script&gt; &quot;x&quot; &#39;y&#39;");
    }

    @Test
    void plainTextIsReturnedUnchanged() {
        String s = "the launch moved to April, naïve café 日本 😀";
        assertThat(Html.escape(s)).isSameAs(s).isEqualTo(s);
    }

    @Test
    void everyBidiControlIsShownAsAVisibleMarker() {
        for (char c : new char[] {'\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'}) {
            String out = Html.escape("a" + c + "b");
            assertThat(out).isEqualTo("a&lt;U+" + Integer.toHexString(c).toUpperCase() + "&gt;b")
                    .doesNotContain(String.valueOf(c));
        }
        assertThat(Html.escape("\u2029\u2065\u206A")).as("neighbours of the ranges are kept").isEqualTo("\u2029\u2065\u206A");
    }

    @Test
    void controlCharactersButTabAndNewlinesAreMarked() {
        assertThat(Html.escape("a\tb\nc\rd")).isEqualTo("a\tb\nc\rd");
        assertThat(Html.escape("a\u0000b\u001bc\u007f")).isEqualTo("a&lt;U+0000&gt;b&lt;U+001B&gt;c&lt;U+007F&gt;");
    }

    @Test
    void surrogatePairsAreKeptAndLoneHalvesMarked() {
        assertThat(Html.escape("<😀>")).isEqualTo("&lt;😀&gt;");
        assertThat(Html.escape("a\uD800b")).isEqualTo("a&lt;U+D800&gt;b");
        assertThat(Html.escape("a\uDC00")).isEqualTo("a&lt;U+DC00&gt;");
        assertThat(Html.escape("\uD83D")).isEqualTo("&lt;U+D83D&gt;");
    }

    @Test
    void attributeValuesAreEscapedAndNullValuesOmitted() {
        String html = new Html().open("a", "href", "/x?a=1&b=\"2\"", "title", null).text("<t>").close("a").toString();
        assertThat(html).isEqualTo("<a href=\"/x?a=1&amp;b=&quot;2&quot;\">&lt;t&gt;</a>");
    }

    @Test
    void urlPartsArePercentEncoded() {
        assertThat(Html.url("a b/c?d&e")).isEqualTo("a%20b%2Fc%3Fd%26e");
    }
}
