#include "data/ingest/csvin.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/ingest/textenc.h"

#define CSVIN_CHUNK ((size_t)64 * 1024)

/* The reader's state for one input. libcsv reuses its field buffer for
 * every field, so the fields of the current record are copied into buf,
 * each followed by a NUL; their offsets are kept because buf may move. */
typedef struct Csvin {
    struct csv_parser parser;
    const char *name;
    size_t max_record;
    CsvinFn fn;
    void *ctx;
    CpErr *err;
    CpBuf buf;           /* field bytes of the record being read */
    size_t *off, *len;   /* per field: offset in buf, length */
    char **ptr;          /* per field: pointer handed to fn */
    size_t nfields, cap;
    int64_t line;        /* line of the next byte fed to libcsv */
    int64_t rec_line;    /* line where the open record started */
    int64_t bytes_read;
    size_t rec_bytes;    /* bytes fed since the open record started */
    int open;            /* a record has started and not yet ended */
    int prev_cr;         /* the last byte fed was a CR */
    int failed;          /* fn or a limit stopped the reader; err is filled */
} Csvin;

static int too_big(Csvin *in)
{
    in->failed = 1;
    return cp_err_set(in->err, "%s:%lld: record longer than %zu bytes (unterminated quote?)",
                      in->name, (long long)in->rec_line, in->max_record);
}

/* libcsv's end-of-field callback: copy the field into the record. */
static void on_field(void *s, size_t n, void *data)
{
    Csvin *in = data;
    if (in->failed)
        return;
    if (in->nfields == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 16;
        in->off = xrealloc(in->off, in->cap * sizeof *in->off);
        in->len = xrealloc(in->len, in->cap * sizeof *in->len);
        in->ptr = xrealloc(in->ptr, in->cap * sizeof *in->ptr);
    }
    in->off[in->nfields] = in->buf.len;
    in->len[in->nfields] = n;
    if (n)
        cpbuf_append(&in->buf, s, n);
    cpbuf_append(&in->buf, "", 1); /* the NUL that ends the field */
    in->nfields++;
}

static void record_reset(Csvin *in)
{
    cpbuf_clear(&in->buf);
    in->nfields = 0;
    in->open = 0;
    in->rec_bytes = 0;
}

/* Every cell must be UTF-8 without NUL bytes (libcsv keeps a NUL, which
 * would cut the cell short): refuse the record, naming its line and field. */
static int refuse_bad_text(Csvin *in)
{
    for (size_t i = 0; i < in->nfields; i++) {
        size_t off = textenc_utf8_bad(in->ptr[i], in->len[i]);
        if (off == in->len[i])
            continue;
        CpErr why;
        textenc_bad_reason(in->ptr[i], off, &why);
        in->failed = 1;
        return cp_err_set(in->err, "%s:%lld: field %zu: %s", in->name, (long long)in->rec_line,
                          i + 1, why.msg);
    }
    return 0;
}

/* libcsv's end-of-record callback: hand the record to fn. */
static void on_record(int c, void *data)
{
    Csvin *in = data;
    (void)c;
    if (in->failed)
        return;
    if (!in->open) /* a record made of blanks only: libcsv saw no byte we counted */
        in->rec_line = in->line;
    if (in->rec_bytes > in->max_record) {
        too_big(in);
        return;
    }
    if (in->nfields) {
        for (size_t i = 0; i < in->nfields; i++)
            in->ptr[i] = in->buf.data + in->off[i];
        if (refuse_bad_text(in) < 0)
            return;
        CsvinRec rec = {in->ptr, in->len, in->nfields, in->rec_line, in->bytes_read};
        if (in->fn(in->ctx, &rec, in->err) < 0)
            in->failed = 1;
    }
    record_reset(in);
}

static int is_blank_byte(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Feed one segment: bytes up to and including one line end (or the end of
 * the chunk). A segment holding more than blanks opens a record when none
 * is open, which is how the record's first line is known. */
static int feed_segment(Csvin *in, const unsigned char *p, size_t n)
{
    if (!in->open) {
        for (size_t i = 0; i < n; i++)
            if (!is_blank_byte(p[i])) {
                in->open = 1;
                in->rec_line = in->line;
                break;
            }
    }
    if (in->open)
        in->rec_bytes += n;
    if (csv_parse(&in->parser, p, n, on_field, on_record, in) != n && !in->failed) {
        in->failed = 1;
        return cp_err_set(in->err, "%s:%lld: %s", in->name, (long long)in->line,
                          csv_strerror(csv_error(&in->parser)));
    }
    if (in->failed)
        return -1;
    if (in->open && in->rec_bytes > in->max_record)
        return too_big(in);
    unsigned char last = p[n - 1];
    if (last == '\r' || (last == '\n' && !(n == 1 && in->prev_cr)))
        in->line++;
    in->prev_cr = last == '\r';
    return 0;
}

/* Feed a chunk, one line at a time so that each record's line is known. */
static int feed_chunk(Csvin *in, const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n && p[j] != '\n' && p[j] != '\r')
            j++;
        if (j < n)
            j++; /* the line end belongs to the segment */
        if (feed_segment(in, p + i, j - i) < 0)
            return -1;
        in->bytes_read += (int64_t)(j - i);
        i = j;
    }
    return 0;
}

/* End of input: a quoted field still open is an error, else libcsv emits
 * the last record if it had no line end. */
static int finish(Csvin *in)
{
    csv_set_opts(&in->parser, CSV_APPEND_NULL | CSV_STRICT | CSV_STRICT_FINI);
    if (csv_fini(&in->parser, on_field, on_record, in) != 0 && !in->failed) {
        in->failed = 1;
        return cp_err_set(in->err, "%s:%lld: quoted field not closed at end of file", in->name,
                          (long long)in->rec_line);
    }
    return in->failed ? -1 : 0;
}

static int read_all(Csvin *in, FILE *f, unsigned char *chunk)
{
    int first = 1;
    for (;;) {
        size_t n = fread(chunk, 1, CSVIN_CHUNK, f);
        const unsigned char *p = chunk;
        if (first && n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
            p += 3;
            n -= 3;
            in->bytes_read += 3;
        }
        first = 0;
        if (n && feed_chunk(in, p, n) < 0)
            return -1;
        if (ferror(f))
            return cp_err_set(in->err, "%s: read error: %s", in->name, strerror(errno));
        if (feof(f))
            return finish(in);
    }
}

int csvin_read(FILE *f, const char *name, size_t max_record, CsvinFn fn, void *ctx,
               CpErr *err)
{
    Csvin in;
    memset(&in, 0, sizeof in);
    in.name = name;
    in.max_record = max_record ? max_record : CSVIN_MAX_RECORD_DEFAULT;
    in.fn = fn;
    in.ctx = ctx;
    in.err = err;
    in.line = 1;
    cpbuf_init(&in.buf);
    if (csv_init(&in.parser, CSV_APPEND_NULL) != 0)
        return cp_err_set(err, "%s: cannot start the CSV parser", name);
    unsigned char *chunk = xmalloc(CSVIN_CHUNK);
    int rc = read_all(&in, f, chunk);
    free(chunk);
    csv_free(&in.parser);
    cpbuf_done(&in.buf);
    free(in.off);
    free(in.len);
    free(in.ptr);
    return rc;
}

/* 1 when field (n bytes) equals one of the '|'-separated names in col. */
static int name_matches(const char *field, size_t n, const char *col)
{
    for (const char *p = col;;) {
        const char *bar = strchr(p, '|');
        size_t m = bar ? (size_t)(bar - p) : strlen(p);
        if (m == n && strncasecmp(field, p, n) == 0)
            return 1;
        if (!bar)
            return 0;
        p = bar + 1;
    }
}

static int find_column(const CsvinRec *hdr, const char *col)
{
    for (size_t i = 0; i < hdr->n; i++)
        if (name_matches(hdr->f[i], hdr->len[i], col))
            return (int)i;
    return -1;
}

int csvin_has_column(const CsvinRec *hdr, const char *col)
{
    return find_column(hdr, col) >= 0;
}

/* A header naming one column twice (or a column and its alias) leaves which
 * one holds the values to chance: refused. */
static int check_duplicates(const CsvinRec *hdr, const char *name, const char *const *cols,
                            size_t ncols, CpErr *err)
{
    for (size_t i = 0; i < hdr->n; i++)
        for (size_t j = i + 1; j < hdr->n && hdr->len[i]; j++) {
            int same = hdr->len[i] == hdr->len[j] &&
                       strncasecmp(hdr->f[i], hdr->f[j], hdr->len[i]) == 0;
            for (size_t c = 0; c < ncols && !same; c++)
                same = name_matches(hdr->f[i], hdr->len[i], cols[c]) &&
                       name_matches(hdr->f[j], hdr->len[j], cols[c]);
            if (same)
                return cp_err_set(err, "%s:%lld: columns %zu and %zu ('%.*s', '%.*s') name the "
                                       "same field",
                                  name, (long long)hdr->line, i + 1, j + 1,
                                  (int)(hdr->len[i] > 64 ? 64 : hdr->len[i]), hdr->f[i],
                                  (int)(hdr->len[j] > 64 ? 64 : hdr->len[j]), hdr->f[j]);
        }
    return 0;
}

int csvin_columns(const CsvinRec *hdr, const char *name, const char *const *cols, size_t ncols,
                  size_t nrequired, int *idx, CpErr *err)
{
    if (hdr->n < 256 && check_duplicates(hdr, name, cols, ncols, err) < 0)
        return -1;
    for (size_t i = 0; i < ncols; i++) {
        idx[i] = find_column(hdr, cols[i]);
        if (idx[i] < 0 && i < nrequired) {
            const char *bar = strchr(cols[i], '|');
            int m = bar ? (int)(bar - cols[i]) : (int)strlen(cols[i]);
            return cp_err_set(err, "%s:%lld: missing column '%.*s'", name, (long long)hdr->line,
                              m, cols[i]);
        }
    }
    return 0;
}

int csvin_rec_comment(const CsvinRec *rec)
{
    return rec->n > 0 && rec->len[0] > 0 && rec->f[0][0] == '#';
}

const CsvinRec *csvin_pad(const CsvinRec *rec, size_t n, CsvinPad *pad)
{
    if (rec->n == n)
        return rec;
    if (rec->n > n || n > CSVIN_PAD_MAX)
        return NULL;
    pad->empty[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        pad->f[i] = i < rec->n ? rec->f[i] : pad->empty;
        pad->len[i] = i < rec->n ? rec->len[i] : 0;
    }
    CsvinRec out = {pad->f, pad->len, n, rec->line, rec->bytes_read};
    memcpy(&pad->rec, &out, sizeof out);
    return &pad->rec;
}

int csvin_rec_empty(const CsvinRec *rec)
{
    for (size_t i = 0; i < rec->n; i++)
        if (rec->len[i])
            return 0;
    return 1;
}

int csvin_read_path(const char *path, int enc, CsvinFn fn, void *ctx, CpErr *err)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return cp_err_set(err, "%s: cannot open: %s", path, strerror(errno));
    FILE *in = enc != TEXTENC_UTF8 ? textenc_open(f, (TextEnc)enc) : f;
    int rc = in ? csvin_read(in, is_stdin ? "<stdin>" : path, 0, fn, ctx, err)
                : cp_err_set(err, "%s: %s", path, strerror(errno));
    if (in && in != f)
        fclose(in);
    if (!is_stdin)
        fclose(f);
    return rc;
}
