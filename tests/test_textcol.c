/* textcol: padding UTF-8 text by its display width (tests/test_utf8.c
 * checks the widths), sanitising as it prints, and a table sized from its
 * content. The expected strings are written out byte by byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/textcol.h"

/* What f wrote; caller frees. */
typedef struct Cap {
    FILE *f;
    char *buf;
    size_t n;
} Cap;

static FILE *cap_open(Cap *c)
{
    c->buf = NULL;
    c->n = 0;
    c->f = open_memstream(&c->buf, &c->n);
    assert_non_null(c->f);
    return c->f;
}

static char *cap_close(Cap *c)
{
    fclose(c->f);
    return c->buf;
}

static void test_put(void **state)
{
    (void)state;
    Cap c;
    FILE *f = cap_open(&c);
    textcol_put(f, "M\xc3\xbcller", 8, 0);
    fputc('|', f);
    textcol_put(f, "Jos\xc3\xa9", 6, 1);
    fputc('|', f);
    textcol_put(f, "\xe4\xb8\xad\xe6\x96\x87", 5, 0);
    fputc('|', f);
    textcol_put(f, "longer than w", 4, 0);
    fputc('|', f);
    textcol_put(f, "a\x1b[31m\xe2\x80\xae" "b\xff", 0, 0); /* ESC, RLO, bad byte */
    char *got = cap_close(&c);
    assert_string_equal(got, "M\xc3\xbcller  |  Jos\xc3\xa9|\xe4\xb8\xad\xe6\x96\x87 |longer than w|"
                             "a?[31m?b?");
    free(got);
}

static void test_table(void **state)
{
    (void)state;
    const TextCol cols[] = {{"name", 0}, {"GPU-hours", 1}, {"note", 0}};
    const char *const cells[] = {
        "M\xc3\xbcller", "12.5", "ok",
        "Jos\xc3\xa9 Garc\xc3\xad" "a", "1,200.0", "",
        "x", "3", NULL,
    };
    Cap c;
    textcol_table(cap_open(&c), cols, 3, cells, 3);
    char *got = cap_close(&c);
    assert_string_equal(got, "name         GPU-hours  note\n"
                             "M\xc3\xbcller            12.5  ok\n"
                             "Jos\xc3\xa9 Garc\xc3\xad" "a    1,200.0\n"
                             "x                    3\n");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests_name("textcol", tests, NULL, NULL);
}
