#include "data/ingest/sacct_text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "data/ingest/linereader.h"
#include "data/ingest/sacct_fields.h"
#include "data/ingest/trace.h"
#include "data/ingest/textenc.h"

#define MAX_LINE (1u << 20) /* 1 MiB: far beyond any real sacct line */
#define MAX_COLS 256        /* sacct --format=ALL has 109 */
#define PROGRESS_EVERY 65536
#define DELIM_MAX 16        /* longest delimiter read from a header */

typedef struct TextCtx {
    CpReadCtx *rc;
    const char *delim;
    size_t dlen;
    char delim_buf[DELIM_MAX];
    SacctField cols[MAX_COLS];
    char *names;                 /* the column names, NUL-separated (owned) */
    const char *colname[MAX_COLS]; /* into names, for messages */
    int ncols;
    int jobname_last; /* JobName is the last column: it may hold the delimiter */
    int trailing;     /* --parsable: every line ends with the delimiter */
    int detect;       /* no delimiter given: read it from the header line */
    int64_t lineno;   /* line being read, for messages */
    char *cut[MAX_COLS + 1];
    size_t cutlen[MAX_COLS + 1];
    SacctMemo memo; /* values read before */
    SacctRow row;   /* the line being read: the header's fields set on every line */
} TextCtx;

static char *find_delim(const TextCtx *t, char *p, char *end)
{
    if (t->dlen == 1)
        return memchr(p, t->delim[0], (size_t)(end - p));
    return memmem(p, (size_t)(end - p), t->delim, t->dlen);
}

/* Split line in place (NUL at each delimiter) into at most max fields, the
 * last keeping the rest of the line. Returns the count, MAX_COLS + 1 when
 * there are more fields than capplan accepts. */
static int split(TextCtx *t, char *line, size_t len, int max)
{
    char *p = line, *end = line + len;
    int n = 0;
    for (;;) {
        if (n == MAX_COLS + 1)
            return n;
        char *d = n + 1 < max ? find_delim(t, p, end) : NULL;
        t->cut[n] = p;
        if (!d) {
            t->cutlen[n++] = (size_t)(end - p);
            return n;
        }
        t->cutlen[n++] = (size_t)(d - p);
        *d = '\0';
        p = d + t->dlen;
    }
}

static int ends_with_delim(const TextCtx *t, const char *line, size_t len)
{
    return len >= t->dlen && memcmp(line + len - t->dlen, t->delim, t->dlen) == 0;
}

/* Columns known: note a JobName last; refuse a field named twice (which
 * of the two holds the truth cannot be told: #29). what: "header" or
 * "--fields". */
static int set_columns_done(TextCtx *t, const char *what, CpErr *err)
{
    t->jobname_last = t->ncols > 0 && t->cols[t->ncols - 1] == SF_JOBNAME;
    for (int j = 1; j < t->ncols; j++)
        for (int i = 0; i < j; i++)
            if (t->cols[j] != SF_IGNORED && t->cols[i] == t->cols[j])
                return cp_err_set(err, "%s names %s twice (fields %d and %d): which one holds "
                                       "the job's value cannot be told; keep one",
                                  what, sacctf_name(t->cols[j]), i + 1, j + 1);
    return 0;
}

/* A header names sacct fields, among them JobID or JobIDRaw (in any
 * position: `--format=ALL` starts with Account). */
static int is_header(TextCtx *t, char *line, size_t len)
{
    char *p = line, *end = line + len;
    while (p <= end) {
        char *d = find_delim(t, p, end);
        size_t n = d ? (size_t)(d - p) : (size_t)(end - p);
        SacctField f = sacctf_lookup(p, n);
        if (f == SF_JOBID || f == SF_JOBIDRAW)
            return 1;
        if (!d)
            break;
        p = d + t->dlen;
    }
    return 0;
}

static int columns_from_header(TextCtx *t, char *line, size_t len, CpErr *err)
{
    if (ends_with_delim(t, line, len)) {
        t->trailing = 1;
        len -= t->dlen;
        line[len] = '\0';
    }
    int n = split(t, line, len, MAX_COLS + 1);
    if (n > MAX_COLS)
        return cp_err_set(err, "header has more than %d fields", MAX_COLS);
    t->ncols = n;
    t->names = xmalloc(len + 1);
    for (int i = 0; i < n; i++) {
        t->cols[i] = sacctf_lookup(t->cut[i], t->cutlen[i]);
        char *name = t->names + (t->cut[i] - line);
        memcpy(name, t->cut[i], t->cutlen[i] + 1);
        t->colname[i] = name;
    }
    return set_columns_done(t, "header", err);
}

/* A byte that can be part of a sacct field name. */
static int name_byte(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* The delimiter of a header line: the bytes between its first field name
 * and the next one ("|", ",", "^|^", U+2603...), or "|" when the line
 * names one field only. */
static void detect_delim(TextCtx *t, const char *line, size_t len)
{
    size_t i = 0, j;
    while (i < len && name_byte(line[i]))
        i++;
    j = i;
    while (j < len && !name_byte(line[j]))
        j++;
    if (i == 0 || j == i || j - i >= DELIM_MAX)
        return;
    memcpy(t->delim_buf, line + i, j - i);
    t->delim_buf[j - i] = '\0';
    t->delim = t->delim_buf;
    t->dlen = j - i;
}

static int columns_from_list(TextCtx *t, const char *fields, CpErr *err)
{
    const char *list = strcmp(fields, "xdmod") == 0 ? sacctf_xdmod_fields : fields;
    const char *p = list;
    t->ncols = 0;
    while (*p) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (t->ncols == MAX_COLS)
            return cp_err_set(err, "--fields: more than %d fields", MAX_COLS);
        SacctField f = sacctf_lookup(p, n);
        t->colname[t->ncols] = "";
        t->cols[t->ncols++] = f;
        p = c ? c + 1 : p + n;
    }
    if (t->ncols == 0)
        return cp_err_set(err, "--fields: empty list");
    return set_columns_done(t, "--fields", err);
}

static int reject(TextCtx *t, CpErr *err, const char *field, const char *reason)
{
    return reader_reject(t->rc, err, t->lineno, field, reason);
}

/* Every value must be UTF-8: refuse the line naming the first field that
 * is not (the column's name, or its number when it has none). */
static int check_utf8(TextCtx *t, int n, CpErr *err)
{
    for (int i = 0; i < n; i++) {
        size_t off = textenc_utf8_bad(t->cut[i], t->cutlen[i]);
        if (off == t->cutlen[i])
            continue;
        char field[80];
        if (t->colname[i][0])
            snprintf(field, sizeof field, "%.64s", t->colname[i]);
        else if (t->cols[i] != SF_IGNORED)
            snprintf(field, sizeof field, "%s", sacctf_name(t->cols[i]));
        else
            snprintf(field, sizeof field, "%d", i + 1);
        CpErr why;
        textenc_bad_reason(t->cut[i], off, &why);
        return reject(t, err, field, why.msg) < 0 ? -1 : 1;
    }
    return 0;
}

/* The bytes of w that are 0, as 0x80 in their place (exact per byte). */
static uint64_t zero_bytes(uint64_t w)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
    return ~(((w & low7) + low7) | w | low7);
}

/* The usual line, split in one pass: a one-byte delimiter, plain ASCII
 * without NUL, and no more fields than the header's (one more when empty:
 * --parsable). Fills t->cut/t->cutlen (NUL at each delimiter) and returns
 * the count and sets *lenp without a --parsable trailing delimiter, or
 * returns -1 when the line needs the general path (which then checks,
 * splits and words its messages from the unchanged line). */
static int split_ascii(TextCtx *t, char *line, size_t *lenp)
{
    size_t len = *lenp;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const unsigned char d = (unsigned char)t->delim[0];
    size_t end = t->trailing && len > 0 && (unsigned char)line[len - 1] == d ? len - 1 : len;
    int max = t->jobname_last ? t->ncols : t->ncols + 1; /* fields that may be cut */
    size_t at[MAX_COLS + 1];
    int nd = 0;
    const uint64_t dmask = 0x0101010101010101ULL * d;
    const uint64_t high = 0x8080808080808080ULL;
    size_t i = 0;
#ifdef __SSE2__
    /* 16 bytes at a time (issue 31 item 3): a bit per byte that is the
     * delimiter, one per byte that is NUL or not ASCII */
    const __m128i dv = _mm_set1_epi8((char)d), zero = _mm_setzero_si128();
    for (; i + 16 <= len; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(line + i));
        if (_mm_movemask_epi8(v) | _mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)))
            return -1;
        for (unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, dv)); m; m &= m - 1) {
            size_t pos = i + (size_t)__builtin_ctz(m);
            if (pos >= end || nd + 1 >= max)
                break;
            at[nd++] = pos;
        }
    }
#endif
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, line + i, 8);
        if ((w & high) | zero_bytes(w))
            return -1;
        for (uint64_t m = zero_bytes(w ^ dmask); m; m &= m - 1) {
            size_t pos = i + (size_t)(__builtin_ctzll(m) >> 3);
            if (pos >= end || nd + 1 >= max)
                break;
            at[nd++] = pos;
        }
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == 0 || c >= 0x80)
            return -1;
        if (c == d && i < end && nd + 1 < max)
            at[nd++] = i;
    }
    int n = nd + 1;
    if (n == t->ncols + 1 && !t->jobname_last && nd > 0 && at[nd - 1] + 1 == end)
        n--; /* a --parsable trailing delimiter */
    else if (n > t->ncols)
        return -1;
    if (end < len)
        line[end] = '\0';
    *lenp = end;
    size_t from = 0;
    for (int k = 0; k < nd; k++) {
        t->cut[k] = line + from;
        t->cutlen[k] = at[k] - from;
        line[at[k]] = '\0';
        from = at[k] + 1;
    }
    t->cut[nd] = line + from;
    t->cutlen[nd] = end - from;
    return n;
#else
    (void)t, (void)line, (void)lenp;
    return -1;
#endif
}

/* The general path: checks the line, splits it; the field count, 0 when
 * the line was rejected (and may go on), -1 to stop. */
static int split_checked(TextCtx *t, char *line, size_t *lenp, CpErr *err)
{
    char reason[160];
    size_t len = *lenp;
    if (memchr(line, '\0', len))
        return reject(t, err, "", "binary data (NUL byte) in line") < 0 ? -1 : 0;
    int utf8 = textenc_utf8_bad(line, len) == len; /* the whole line, before it is split */
    if (t->trailing && ends_with_delim(t, line, len)) {
        len -= t->dlen;
        line[len] = '\0';
    }
    *lenp = len;
    int n = split(t, line, len, t->jobname_last ? t->ncols : MAX_COLS + 1);
    if (n == t->ncols + 1 && t->cutlen[n - 1] == 0 && !t->jobname_last)
        n--; /* a --parsable trailing delimiter */
    if (n > t->ncols) {
        snprintf(reason, sizeof reason, "expected %d fields, found %s%d", t->ncols,
                 n > MAX_COLS ? "more than " : "", n > MAX_COLS ? MAX_COLS : n);
        return reject(t, err, "", reason) < 0 ? -1 : 0;
    }
    int not_utf8 = utf8 ? 0 : check_utf8(t, n, err);
    if (not_utf8 != 0)
        return not_utf8 < 0 ? -1 : 0;
    return n;
}

static int data_line(TextCtx *t, char *line, size_t len, CpErr *err)
{
    int n = t->dlen == 1 ? split_ascii(t, line, &len) : -1;
    if (n < 0) {
        n = split_checked(t, line, &len, err);
        if (n <= 0)
            return n;
    }
    for (int k = n; k < t->ncols; k++) { /* a row that drops its trailing empty fields */
        t->cut[k] = line + len;
        t->cutlen[k] = 0;
    }
    SacctRow *row = &t->row; /* every column is set again below */
    sacctf_row_next(row);
    sacctf_set_cols(row, t->cols, t->cut, t->cutlen, t->ncols);
    const char *bad = "";
    CpErr ferr;
    if (sacctf_finish(row, t->rc->tz, &bad, &ferr) < 0)
        return reject(t, err, bad, ferr.msg);
    return t->rc->sink.job(t->rc->sink.ctx, &row->rec, err);
}

/* The first record of a headerless file holds no delimiter at all while
 * --fields names several: every line would be refused for the same cause,
 * so stop with one line and a hint (#29): the bytes after the job id up to
 * the next letter or digit are the likely delimiter. */
static int wrong_delimiter(TextCtx *t, const char *line, size_t len, CpErr *err)
{
    size_t i = 0, j;
    while (i < len && ((line[i] >= '0' && line[i] <= '9') || line[i] == '_' || line[i] == '.' ||
                       line[i] == '[' || line[i] == ']' || line[i] == '-' || line[i] == '+'))
        i++;
    j = i;
    while (j < len && j - i < DELIM_MAX && !name_byte(line[j]))
        j++;
    int guess = j > i && j < len; /* something between two fields */
    return cp_err_set(err, "line %lld: no '%s' in it, but --fields names %d fields: the "
                           "delimiter is another one%s%.*s%s",
                      (long long)t->lineno, t->delim, t->ncols,
                      guess ? " (give it with --delimiter, e.g. --delimiter '" : " (give it with --delimiter)",
                      guess ? (int)(j - i) : 0, line + i, guess ? "')" : "");
}

static int line_loop(TextCtx *t, LineReader *lr, const char *fields, char *fmt, size_t fmtsz,
                     CpErr *err)
{
    char *line;
    size_t len;
    int have_columns = 0, rc;
    int64_t records = 0;
    if (fields) {
        if (columns_from_list(t, fields, err) < 0)
            return -1;
        have_columns = 1;
    }
    while ((rc = lr_next(lr, &line, &len)) != LR_EOF) {
        if (rc == LR_ERROR)
            return cp_err_set(err, "read error after line %lld", (long long)lr->lineno);
        t->lineno = lr->lineno;
        if (rc == LR_TOO_LONG) {
            if (!have_columns) /* no header to read records with: one message, the cause */
                return cp_err_set(err, "line %lld longer than 1 MiB where the header was expected",
                                  (long long)lr->lineno);
            if (reject(t, err, "", "line longer than 1 MiB") < 0)
                return -1;
            continue;
        }
        if (lr->lineno == 1 && len >= 3 && memcmp(line, "\xef\xbb\xbf", 3) == 0)
            line += 3, len -= 3; /* UTF-8 byte order mark */
        if (len == 0)
            continue;
        if (line[0] == '#') { /* a comment: neither a record nor a rejected line */
            t->rc->rows_comment++;
            continue;
        }
        if (!have_columns) {
            if (t->detect)
                detect_delim(t, line, len);
            if (!is_header(t, line, len)) {
                const char *k = trace_guess_kind(line, len); /* #29: point to the reader */
                if (k)
                    return cp_err_set(err, "line %lld is not a sacct header: it looks like a trace "
                                           "of kind %s: capplan import trace --kind %s FILE",
                                      (long long)lr->lineno, k, k);
                return cp_err_set(err, "line %lld is not a sacct header (no JobID field): give "
                                       "--fields LIST, or --fields xdmod for Open XDMoD's order",
                                  (long long)lr->lineno);
            }
            if (columns_from_header(t, line, len, err) < 0) {
                char at[32];
                snprintf(at, sizeof at, "line %lld", (long long)lr->lineno);
                cp_err_prefix(err, at);
                return -1;
            }
            have_columns = 1;
            continue;
        }
        if (fields && records == 0 && !t->jobname_last && ends_with_delim(t, line, len))
            t->trailing = 1;
        if (fields && records == 0 && t->ncols > 1 && !memmem(line, len, t->delim, t->dlen))
            return wrong_delimiter(t, line, len, err);
        records++;
        t->rc->rows_read++;
        if (data_line(t, line, len, err) < 0)
            return -1;
        if (t->rc->progress && records % PROGRESS_EVERY == 0)
            t->rc->progress(t->rc->progress_ctx, lr->bytes_read, records);
    }
    if (!have_columns)
        return cp_err_set(err, "empty file");
    snprintf(fmt, fmtsz, "sacct-text%s%s", fields && strcmp(fields, "xdmod") == 0 ? " (xdmod)" : "",
             t->trailing ? " (parsable)" : "");
    return 0;
}

int sacct_text_read(FILE *f, CpReadCtx *ctx, const char *delimiter, const char *fields,
                    char *format_out, size_t format_sz, CpErr *err)
{
    TextCtx *t = xcalloc(1, sizeof *t);
    t->rc = ctx;
    sacctf_row_init(&t->row);
    t->row.memo = &t->memo;
    if (delimiter && !delimiter[0]) {
        free(t);
        return cp_err_set(err, "the delimiter cannot be empty");
    }
    t->delim = delimiter ? delimiter : "|";
    t->dlen = strlen(t->delim);
    t->detect = !delimiter && !fields;
    LineReader lr;
    lr_init(&lr, f, MAX_LINE);
    int rc = line_loop(t, &lr, fields, format_out, format_sz, err);
    lr_done(&lr);
    free(t->names);
    free(t);
    return rc;
}
