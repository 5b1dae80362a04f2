#ifndef CSVW_H
#define CSVW_H
/* csvw: CSV cells for the exports: RFC 4180 (a cell with a comma, quote or
 * line break is quoted, quotes doubled; CRLF ends a record), UTF-8, dot
 * decimals, no thousands separators.
 *
 * Spreadsheet safety (OWASP "CSV injection"): a text cell that starts with
 * '=', '+', '-', '@', a tab, a carriage return or a line feed, after any
 * leading spaces (" =1+1" too), is neutralised: it is
 * written quoted with a single quote in front ('=HYPERLINK(...)), so a
 * spreadsheet shows it as text and never runs it. The one exception is a
 * text cell that is a plain decimal number ("-3.5", "-12"): a spreadsheet
 * reads that as the number it is, not as a formula, so it is kept as is.
 * Numeric cells (csvw_num) are numbers and never prefixed: -3.5 stays
 * -3.5. Control characters from data become '?' (rtext) after the check.
 * Writes only to the FILE* given. */

#include <stdio.h>

/* 1 when s would be neutralised by csvw_text, else 0. */
int csvw_risky(const char *s);
/* 1 when s is a plain decimal number: -?digits(.digits)? */
int csvw_plain_number(const char *s);

/* A text cell. */
void csvw_text(FILE *out, const char *s);
/* A number: up to 10 significant digits, no exponent below 1e15; NaN
 * gives an empty cell (unknown); -0 gives 0. */
void csvw_num(FILE *out, double v);
/* The separator before every cell but the first, and the record's end. */
void csvw_sep(FILE *out);
void csvw_end(FILE *out);

#endif
