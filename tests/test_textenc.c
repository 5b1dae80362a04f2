/* data/textenc: UTF-8 validation and the Latin-1 / Windows-1252 stream.
 * Expected offsets: python3's bytes.decode('utf-8') (UnicodeDecodeError's
 * start), a NUL counting as bad; expected conversions: bytes.decode('latin-1')
 * and bytes.decode('cp1252') re-encoded as UTF-8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "data/ingest/textenc.h"

static void test_utf8_bad(void **state)
{
    (void)state;
    static const struct {
        const char *s;
        size_t n, bad;
    } cases[] = {
        {"plain ascii text that is long", 29, 29},
        {"caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80", 14, 14},
        {"abcdefgh\xc3\xa9", 10, 10},
        {"abcdefg\xc3\xa9", 9, 9},
        {"abcdefgh\xe9", 9, 8},
        {"\xc0\xaf", 2, 0},             /* overlong '/' */
        {"\xed\xa0\x80", 3, 0},         /* a surrogate */
        {"\xf4\x90\x80\x80", 4, 0},     /* above U+10FFFF */
        {"abcdefghijklmno\0p", 17, 15}, /* NUL */
        {"\xe2\x98", 2, 0},             /* cut short */
        {"12345678\xf0\x9f\x98\x80x", 13, 13},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (textenc_utf8_bad(cases[i].s, cases[i].n) != cases[i].bad)
            fail_msg("case %zu: %zu, expected %zu", i, textenc_utf8_bad(cases[i].s, cases[i].n),
                     cases[i].bad);
}

/* Read all of text through textenc_open(enc) into out. */
static size_t convert(const char *text, size_t n, TextEnc enc, char *out, size_t cap)
{
    FILE *f = fmemopen((void *)(uintptr_t)text, n, "rb");
    assert_non_null(f);
    FILE *in = textenc_open(f, enc);
    assert_non_null(in);
    size_t got = 0, k;
    char buf[3]; /* small reads: a character split across two of them */
    while ((k = fread(buf, 1, sizeof buf, in)) > 0) {
        assert_true(got + k <= cap);
        memcpy(out + got, buf, k);
        got += k;
    }
    fclose(in);
    fclose(f);
    return got;
}

static void test_stream(void **state)
{
    (void)state;
    const char latin[] = "r\xe9sum\xe9 \x80 co\xfbt \xff";
    char out[64];
    size_t n = convert(latin, sizeof latin - 1, TEXTENC_LATIN1, out, sizeof out);
    const char want1[] = "r\xc3\xa9sum\xc3\xa9 \xc2\x80 co\xc3\xbbt \xc3\xbf";
    assert_int_equal(n, sizeof want1 - 1);
    assert_memory_equal(out, want1, n);
    n = convert(latin, sizeof latin - 1, TEXTENC_CP1252, out, sizeof out);
    const char want2[] = "r\xc3\xa9sum\xc3\xa9 \xe2\x82\xac co\xc3\xbbt \xc3\xbf";
    assert_int_equal(n, sizeof want2 - 1);
    assert_memory_equal(out, want2, n);
    assert_int_equal(textenc_utf8_bad(out, n), n);
    n = convert("ok \xe2\x98\x83", 6, TEXTENC_UTF8, out, sizeof out); /* unchanged */
    assert_memory_equal(out, "ok \xe2\x98\x83", 6);
}

static void test_parse(void **state)
{
    (void)state;
    TextEnc e;
    CpErr err;
    assert_int_equal(textenc_parse("UTF-8", &e, &err), 0);
    assert_int_equal(e, TEXTENC_UTF8);
    assert_int_equal(textenc_parse("ISO-8859-1", &e, &err), 0);
    assert_int_equal(e, TEXTENC_LATIN1);
    assert_int_equal(textenc_parse("windows-1252", &e, &err), 0);
    assert_int_equal(e, TEXTENC_CP1252);
    assert_int_equal(textenc_parse("ebcdic", &e, &err), -1);
    assert_string_equal(err.msg, "unknown encoding 'ebcdic' (utf-8, latin1 or cp1252)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8_bad),
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
