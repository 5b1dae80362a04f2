/* utf8: decoding (malformed input one U+FFFD at a time), encoding, and the
 * display width of text once sanitised (an accented letter one column in
 * two bytes, a combining accent none, a CJK character two, a control
 * character one: it is shown as '?'). The byte sequences are written out;
 * their code points were checked with python3's str.encode/decode and
 * unicodedata.east_asian_width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/utf8.h"

static void test_width(void **state)
{
    (void)state;
    assert_int_equal(utf8_width(NULL), 0);
    assert_int_equal(utf8_width(""), 0);
    assert_int_equal(utf8_width("Muller"), 6);
    assert_int_equal(utf8_width("M\xc3\xbcller"), 6);     /* ü precomposed: 7 bytes */
    assert_int_equal(utf8_width("Jos\xc3\xa9"), 4);        /* é precomposed */
    assert_int_equal(utf8_width("Jose\xcc\x81"), 4);       /* e + U+0301 */
    assert_int_equal(utf8_width("\xe4\xb8\xad\xe6\x96\x87"), 4); /* 中文 */
    assert_int_equal(utf8_width("a\x1b[31mb"), 7);         /* ESC shown as '?' */
    assert_int_equal(utf8_width("a\xffz"), 3);             /* a bad byte: '?' */
    assert_int_equal(utf8_width("a\xe2\x80\x8b" "b"), 2);  /* U+200B zero width space */
    assert_int_equal(utf8_width("\xe2\x80\xaeRLO"), 4);    /* U+202E bidi override: '?' */
}

/* Every code point of s, decoded. */
static int decode_all(const char *s, uint32_t *out, int max)
{
    int n = 0;
    while (*s && n < max)
        out[n++] = utf8_next(&s);
    return n;
}

static void test_next(void **state)
{
    (void)state;
    uint32_t cp[8];
    /* "é€😀": 2, 3 and 4 bytes */
    assert_int_equal(decode_all("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", cp, 8), 3);
    assert_int_equal(cp[0], 0xe9);
    assert_int_equal(cp[1], 0x20ac);
    assert_int_equal(cp[2], 0x1f600);
    /* A lead without its continuation: one U+FFFD, then the next byte. */
    assert_int_equal(decode_all("\xc3" "A", cp, 8), 2);
    assert_int_equal(cp[0], UTF8_REPLACEMENT);
    assert_int_equal(cp[1], 'A');
    /* Overlong '/' (3 bytes), a surrogate U+D800, above U+10FFFF: one
     * U+FFFD for each whole sequence. */
    assert_int_equal(decode_all("\xe0\x80\xaf" "\xed\xa0\x80" "\xf4\x90\x80\x80", cp, 8), 3);
    assert_int_equal(cp[0], UTF8_REPLACEMENT);
    assert_int_equal(cp[1], UTF8_REPLACEMENT);
    assert_int_equal(cp[2], UTF8_REPLACEMENT);
    /* 0xc0 and a stray continuation byte are bad leads: one each. */
    assert_int_equal(decode_all("\xc0\xaf", cp, 8), 2);
    assert_int_equal(cp[0], UTF8_REPLACEMENT);
    assert_int_equal(cp[1], UTF8_REPLACEMENT);
}

static void test_put(void **state)
{
    (void)state;
    char buf[5];
    static const uint32_t cps[] = {'A', 0xe9, 0x20ac, 0x1f600, 0x10ffff};
    static const char *const bytes[] = {"A", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                        "\xf4\x8f\xbf\xbf"};
    for (int i = 0; i < 5; i++) {
        int n = utf8_put(cps[i], buf);
        buf[n] = '\0';
        assert_int_equal(n, (int)strlen(bytes[i]));
        assert_string_equal(buf, bytes[i]);
        const char *p = buf;
        assert_int_equal(utf8_next(&p), cps[i]); /* and back */
        assert_ptr_equal(p, buf + n);
    }
}

static void test_clean_and_cp_width(void **state)
{
    (void)state;
    assert_int_equal(utf8_cp_clean(0x1b), '?');
    assert_int_equal(utf8_cp_clean(0x7f), '?');
    assert_int_equal(utf8_cp_clean(0x9b), '?');    /* C1 CSI */
    assert_int_equal(utf8_cp_clean(0x202e), '?');  /* RLO */
    assert_int_equal(utf8_cp_clean(UTF8_REPLACEMENT), '?');
    assert_int_equal(utf8_cp_clean(0xe9), 0xe9);
    assert_int_equal(utf8_cp_width(0x1b), 1);      /* shown as '?' */
    assert_int_equal(utf8_cp_width(0x301), 0);     /* combining acute */
    assert_int_equal(utf8_cp_width(0x4e2d), 2);    /* 中 */
    assert_int_equal(utf8_cp_width(0xac00), 2);    /* 가 */
    assert_int_equal(utf8_cp_width(0x1f600), 2);   /* 😀 */
    assert_int_equal(utf8_cp_width(0xe9), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_width),
        cmocka_unit_test(test_next),
        cmocka_unit_test(test_put),
        cmocka_unit_test(test_clean_and_cp_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
