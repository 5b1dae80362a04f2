#ifndef TEXTCOL_H
#define TEXTCOL_H
/* textcol: the command line's text columns, padded by display width (the
 * terminal's columns, not bytes: "Müller" takes 6 columns in 7 bytes, a
 * CJK character 2, a combining accent none), and a plain table whose
 * columns are as wide as their widest cell. Text from data is sanitised
 * as it is printed, the way the dashboard's canvas does it (both use
 * core/utf8's decoder and widths: utf8_width gives a string's columns):
 * malformed UTF-8, C0/C1 controls, DEL, ESC and bidirectional overrides
 * print as '?'. No allocation that outlives a call. */

#include <stdio.h>

/* Print s, sanitised, in a field of w columns: padded with blanks after it
 * (right 0) or before it (right 1); a wider s is printed whole. */
void textcol_put(FILE *out, const char *s, int w, int right);

/* A column of textcol_table: its title and its alignment. */
typedef struct TextCol {
    const char *title;
    int right; /* 1: right-aligned (numbers) */
} TextCol;

/* Print a header line of the titles, then nrows rows of cells (row-major,
 * ncols a row, borrowed), each column as wide as its widest cell or
 * title, two blanks between columns; the last column is not padded (an
 * empty last cell of a left-aligned column leaves no trailing blanks). */
void textcol_table(FILE *out, const TextCol *cols, int ncols, const char *const *cells,
                   int nrows);

#endif
