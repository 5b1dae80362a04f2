#ifndef SACCT_TEXT_H
#define SACCT_TEXT_H
/* sacct_text: sacct's delimited text (`sacct -P`, `--parsable`,
 * `--delimiter=X`, with or without header) into job and step records.
 * The pipe format is not CSV: there is no quoting, a '"' is a literal
 * character, so lines are split on the delimiter byte by byte. A JobName
 * that holds the delimiter is kept whole when JobName is the last field.
 * Lines starting with '#' are comments: skipped and counted in
 * ctx->rows_comment. A row short by trailing fields has them empty; a row
 * too long, or a value that is not UTF-8, is rejected naming its field.
 * Streams the input through a bounded buffer. */

#include <stdio.h>

#include "data/ingest/reader.h"

/* delimiter: NULL to read it from the header line (the bytes between its
 * first two field names; "|" without a header or with one field); any
 * non-empty byte string ("^|^", "☃"); "" is an error.
 * fields: NULL when the first line is a header; else a comma-separated
 * list of sacct field names, or "xdmod" for Open XDMoD's 26 fields.
 * format_out receives e.g. "sacct-pipe" or "sacct-pipe (xdmod fields)". */
int sacct_text_read(FILE *f, CpReadCtx *ctx, const char *delimiter, const char *fields,
                    char *format_out, size_t format_sz, CpErr *err);

#endif
