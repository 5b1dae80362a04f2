#ifndef MDTABLE_H
#define MDTABLE_H
/* mdtable: the one reader of the report's Markdown tables, for the two
 * that read it back (reports/mdfit rewrites them to fit A4, reports/mdhtml
 * turns them into HTML): the text line by line, and a pipe table as
 * reports/mdw writes it: a header line, an alignment line, rows; every
 * line starts and ends with '|', and '\|' inside a cell is not a
 * separator. Pure: reads memory, allocates what it returns. */

#include <stddef.h>

/* The text md (len bytes), read from pos. */
typedef struct MdLines {
    const char *md;
    size_t len, pos;
} MdLines;

/* The next line at l->pos: its start and length without the '\n' into
 * *s, *n, l->pos after it; 0 at the end of the text. */
int mdlines_next(MdLines *l, const char **s, size_t *n);

/* A table: rows[0] its header, then the data rows, each ncols cells (a
 * short row padded with "", a long one cut); each cell its Markdown
 * text, escapes kept, spaces around it trimmed. right[c] is 1 for a
 * column aligned right ("---:"). All owned: free with mdtable_free. */
typedef struct MdTable {
    char ***rows;
    size_t nrows, ncols;
    char *right;
} MdTable;

/* When the line s (n bytes) that was just read from l is a table's header
 * (a table line followed by an alignment line), read the table into t,
 * leave l after its last row and return 1; else 0, l and t untouched. */
int mdtable_read(MdLines *l, const char *s, size_t n, MdTable *t);
void mdtable_free(MdTable *t);

#endif
