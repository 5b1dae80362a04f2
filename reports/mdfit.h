#ifndef MDFIT_H
#define MDFIT_H
/* mdfit: the report's Markdown made to print on A4 portrait. Every pipe
 * table (a header row, an alignment row, rows, as reports/mdw writes
 * them) is rewritten so that it fits the page:
 *  - a unit that follows every number of a right-aligned column ("12.50
 *    GPUs", "20.0 % (measured 8.0 %)") moves into the column's title
 *    ("Demand (GPUs)") and leaves the cells ("12.50"); cells without a
 *    number ("n/a", "-", "no data before") stay as they are;
 *  - the alignment row's dashes count each column's width, which pandoc
 *    reads as the relative widths of the columns;
 *  - a table wider than MDFIT_WIDTH (in characters, each column's widest
 *    unbreakable content plus 3) is split into tables no wider, each
 *    repeating the leading left-aligned columns (the row's key).
 * Every other line is copied as it is. Pure: reads md, writes out. */

#include <stddef.h>
#include <stdio.h>

/* The widest table, in characters, that prints on A4 portrait at the
 * report's 8 pt table font within 12 mm margins. Measured on the demo's
 * report rendered by weasyprint: every table stays inside the margins up
 * to 140 and passes them at 170; tests/e2e/report_cli.sh checks the PDF. */
#define MDFIT_WIDTH 120

/* Copy md (len bytes) to out with its tables rewritten as above. */
void mdfit(FILE *out, const char *md, size_t len);

#endif
