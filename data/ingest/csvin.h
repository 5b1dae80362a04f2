#ifndef CSVIN_H
#define CSVIN_H
/* csvin: a streaming RFC 4180 CSV reader over a FILE*, built on libcsv.
 * It reads the input in 64 KiB chunks and hands one record at a time to a
 * callback: its fields (NUL-terminated, quotes removed, quoted commas and
 * line breaks kept), their count, and the 1-based line where the record
 * starts. Memory is bounded by the largest record, which is capped: a
 * record longer than the cap (an unterminated quote, a binary file) is a
 * clean error naming the line it started on, never an unbounded buffer.
 *
 * Every cell must be UTF-8 without NUL bytes: a record that is not stops
 * the reader with "people.csv:12: field 3: not UTF-8 (byte 0xE9 at column
 * 4): ..." (read Latin-1 files through textenc_open).
 *
 * Handled: LF, CRLF and lone CR line ends, a UTF-8 byte order mark at the
 * start, blank lines (skipped), a last record without a line end. As
 * libcsv does by default, spaces and tabs around unquoted fields are
 * trimmed. A stray quote inside an unquoted field is kept literally; a
 * quoted field still open at the end of the input is an error.
 *
 * It knows nothing of what the columns mean, of SQLite or of the sink the
 * records go to. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cp.h"

#define CSVIN_MAX_RECORD_DEFAULT ((size_t)1 << 20) /* 1 MiB */

/* One record. Everything is borrowed: it dies when the callback returns.
 * The field bytes themselves may be modified in place by the callback
 * (e.g. to cut a value short); the arrays may not. */
typedef struct CsvinRec {
    char *const *f;       /* f[i] is field i, NUL-terminated at f[i][len[i]] */
    const size_t *len;    /* byte length of each field */
    size_t n;             /* number of fields (>= 1) */
    int64_t line;         /* 1-based line where the record starts */
    int64_t bytes_read;   /* input bytes consumed so far (for progress) */
} CsvinRec;

/* Receives each record. Returns 0 to go on, or -1 with err filled to stop
 * the reader (csvin_read then returns -1 with err as the callback left it). */
typedef int (*CsvinFn)(void *ctx, const CsvinRec *rec, CpErr *err);

/* Read f to its end, calling fn for every non-blank record. name is how
 * the input is shown in messages ("people.csv", "<stdin>"); max_record is
 * the largest record accepted in bytes (0: CSVIN_MAX_RECORD_DEFAULT).
 * Returns 0 at the end of the input, -1 with err filled on a read error, a
 * record too large, an unterminated quote, or when fn stopped the reader.
 * Reader errors read "people.csv:12: record longer than 1048576 bytes".
 * f stays open: the caller closes it. */
int csvin_read(FILE *f, const char *name, size_t max_record, CsvinFn fn, void *ctx,
               CpErr *err);

/* csvin_read over the file at path ("-": standard input, shown as
 * "<stdin>"), read in the text encoding enc (a TextEnc of data/ingest/textenc.h:
 * Latin-1 and Windows-1252 are converted to UTF-8 as they stream). The
 * file is closed before returning. -1 with "path: cannot open: reason"
 * when it cannot be opened, else as csvin_read. */
int csvin_read_path(const char *path, int enc, CsvinFn fn, void *ctx, CpErr *err);

/* Map a header record to column indices. cols lists the columns wanted, the
 * first nrequired of them required; a name may list aliases separated by
 * '|' ("start|start_date"), the first being the one named in messages.
 * Names match case-insensitively. On return idx[i] holds the index in hdr
 * of cols[i], or -1 when an optional column is absent. A missing required
 * column is an error: "people.csv:1: missing column 'group'", and so is a
 * header naming a column twice, or a column and its alias. */
int csvin_columns(const CsvinRec *hdr, const char *name, const char *const *cols, size_t ncols,
                  size_t nrequired, int *idx, CpErr *err);

/* 1 when the header record hdr has a column named col (case-insensitive,
 * aliases as above), else 0. */
int csvin_has_column(const CsvinRec *hdr, const char *col);

/* 1 when every field of rec is empty (a spreadsheet's ",,,," line). */
int csvin_rec_empty(const CsvinRec *rec);

/* 1 when rec is a comment line: its first field starts with '#'. */
int csvin_rec_comment(const CsvinRec *rec);

#define CSVIN_PAD_MAX 64

/* Storage for a record padded with empty trailing fields. */
typedef struct CsvinPad {
    char *f[CSVIN_PAD_MAX];
    size_t len[CSVIN_PAD_MAX];
    char empty[1];
    CsvinRec rec;
} CsvinPad;

/* rec as a record of n fields: a row that dropped its trailing empty
 * fields has them empty. Returns rec itself when it has n fields, a view
 * in pad (borrowed like rec) when it is shorter and n <= CSVIN_PAD_MAX,
 * NULL when it is longer (a row too long is an error) or n is too large. */
const CsvinRec *csvin_pad(const CsvinRec *rec, size_t n, CsvinPad *pad);

#endif
