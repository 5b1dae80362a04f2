#ifndef JSON_STREAM_H
#define JSON_STREAM_H
/* json_stream: hands the elements of one JSON array to a callback, one at a
 * time, reading a FILE* in fixed chunks: memory stays bounded by the largest
 * element (capped by max_elem_bytes) plus one chunk, whatever the file size.
 *
 * Two shapes: the whole input is the array (`[{...},{...}]`, the Philly
 * trace), or the array is one member of a top-level object
 * (`{"meta":{...},"jobs":[...],"errors":[]}`, sacct --json), its other
 * members coming before or after it and handed over parsed, as small
 * cJSON trees.
 *
 * It scans bytes with a small state machine (strings, escapes, bracket
 * depth), copies one element's text into a growable buffer, parses it with
 * cJSON, calls back, and frees it. Every element and error carries the line
 * where it starts. It must not know what the elements mean (no Slurm here),
 * and must never read the whole input into memory.
 *
 * Errors: truncated input, junk outside the structure, a broken bracket
 * structure, an empty input or a read error stop the stream (-1, err says
 * "NAME:LINE: reason"). An element that is bad on its own (a syntax error
 * inside it, or larger than max_elem_bytes) leaves the stream in step: it
 * goes to the `bad` callback when there is one (the reader can then reject
 * the line and go on), else it stops the stream too. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cJSON.h>

#include "core/cp.h"

/* One array element, parsed. elem is borrowed: it is freed when the call
 * returns (detach nothing). line: where the element starts (1-based).
 * Returns 0 to go on, 1 to stop early without error, -1 with err filled to
 * stop with an error (passed through unchanged). */
typedef int (*JsonStreamElemFn)(void *ctx, cJSON *elem, int64_t line, CpErr *err);

/* Another top-level member of the object (key mode only). key and value are
 * borrowed until the call returns. Same return convention as the element. */
typedef int (*JsonStreamMemberFn)(void *ctx, const char *key, cJSON *value, int64_t line,
                                  CpErr *err);

/* An array element that could not be used: reason says why, in one line
 * without file or line number. Returns 0 to go on, -1 with err filled to
 * stop. (A bad value of another top-level member always stops the stream.) */
typedef int (*JsonStreamBadFn)(void *ctx, int64_t line, const char *reason, CpErr *err);

/* Bytes consumed so far; called after an element about every MiB, and once
 * at the end of the input. */
typedef void (*JsonStreamProgressFn)(void *ctx, int64_t bytes_read);

typedef struct JsonStreamOpts {
    const char *key;           /* NULL: the top-level value is the array; else the
                                  array under this member of the top-level object */
    size_t max_elem_bytes;     /* larger elements (and member values) are bad */
    const char *name;          /* shown in messages ("jobs.json"); NULL: "<input>" */
    JsonStreamElemFn each;     /* required */
    JsonStreamMemberFn member; /* NULL: other members are scanned and skipped */
    JsonStreamBadFn bad;       /* NULL: a bad element stops the stream */
    JsonStreamProgressFn progress; /* may be NULL */
    void *ctx;                 /* passed to every callback */
} JsonStreamOpts;

/* Stream f as o describes. Returns 0 at the end of a well-formed input, 1
 * when a callback stopped it early (returned 1), -1 with err filled
 * otherwise. Reads f from its current position; does not close it. */
int json_stream_run(FILE *f, const JsonStreamOpts *o, CpErr *err);

/* The common case: elements only, other members skipped, a bad element
 * stops the stream, messages name the input "<input>". */
int json_stream_array(FILE *f, const char *key, JsonStreamElemFn each, void *ctx,
                      size_t max_elem_bytes, CpErr *err);

#endif
