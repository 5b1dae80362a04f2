#ifndef MDW_H
#define MDW_H
/* mdw: Markdown writing for the report: text from data escaped so that it
 * renders as written (every Markdown and pandoc punctuation backslashed,
 * '|' included, so a table cell never splits), control characters
 * replaced (rtext), tables with a header and alignment row, and numbers
 * with their unit. Writes only to the FILE* given. */

#include <stddef.h>
#include <stdio.h>

/* Text from data, inline (also a table cell). */
void mdw_text(FILE *out, const char *s);

/* A table's header and alignment rows: titles[i] (escaped), align[i] 'l'
 * or 'r'. */
void mdw_head(FILE *out, const char *const *titles, const char *align, size_t n);
/* A row of cells, each already formatted; texts escaped with mdw_text. */
void mdw_row(FILE *out, const char *const *cells, size_t n);

/* v with decimals and its unit into buf: "12.50 GPUs", "35.1 %", "1200
 * GPU-h"; a unit "" gives the number alone; NaN gives "n/a". No thousands
 * separators (the figures are meant to be read back). -0 prints as 0. */
void mdw_num(char *buf, size_t n, double v, int decimals, const char *unit);

#endif
