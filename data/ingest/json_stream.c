#include "data/ingest/json_stream.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define JS_CHUNK 65536             /* bytes read from the file at a time */
#define JS_MAX_DEPTH 512           /* deeper nesting is refused (cJSON stops at 1000) */
#define JS_KEY_MAX 4096            /* longest member name accepted */
#define JS_PROGRESS_STEP (1 << 20) /* report progress about every MiB */

typedef struct JsonStream {
    FILE *f;
    const JsonStreamOpts *o;
    CpErr *err;
    unsigned char *chunk; /* JS_CHUNK bytes, chunk[pos..len) not yet consumed */
    size_t pos, len;
    int eof, ioerr;
    int64_t line;         /* line of chunk[pos], 1-based */
    int64_t chunk_off;    /* input offset of chunk[0] */
    int64_t next_progress;
    int64_t value_line;   /* where the value being scanned starts, -1 outside one */
    CpBuf val;            /* text of the value being captured */
    int capturing;        /* chunk[mark..pos) still to be copied into val */
    size_t mark;
    size_t limit;         /* val may not grow beyond this */
    int too_big;
    char bad[160];        /* first problem seen inside the current value */
    char stack[JS_MAX_DEPTH];
} JsonStream;

static const char *js_name(const JsonStream *s)
{
    return s->o->name ? s->o->name : "<input>";
}

/* Stop the stream: "NAME:LINE: reason" at the current line. */
__attribute__((format(printf, 2, 3))) static int js_fatal(JsonStream *s, const char *fmt, ...)
{
    char why[CP_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return cp_err_set(s->err, "%s:%lld: %s", js_name(s), (long long)s->line, why);
}

/* Remember the first problem of the current value; scanning goes on. */
__attribute__((format(printf, 2, 3))) static void js_set_bad(JsonStream *s, const char *fmt,
                                                              ...)
{
    if (s->bad[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->bad, sizeof s->bad, fmt, ap);
    va_end(ap);
}

/* "'x'" for a printable byte, "byte 0x01" otherwise, "end of input" for -1. */
static const char *js_desc(int c, char out[16])
{
    if (c < 0)
        snprintf(out, 16, "end of input");
    else if (c >= 0x20 && c < 0x7f)
        snprintf(out, 16, "'%c'", c);
    else
        snprintf(out, 16, "byte 0x%02x", (unsigned)c);
    return out;
}

/* Copy the pending captured run into val, unless it would outgrow limit. */
static void js_flush(JsonStream *s)
{
    size_t n = s->pos - s->mark;
    if (s->capturing && n > 0) {
        if (s->val.len + n > s->limit) {
            s->too_big = 1;
            s->capturing = 0;
            cpbuf_clear(&s->val);
        } else {
            cpbuf_append(&s->val, s->chunk + s->mark, n);
        }
    }
    s->mark = s->pos;
}

/* Read the next chunk; -1 at the end of the input or on a read error. */
static int js_fill(JsonStream *s)
{
    if (s->eof)
        return -1;
    js_flush(s);
    s->chunk_off += (int64_t)s->len;
    s->len = fread(s->chunk, 1, JS_CHUNK, s->f);
    s->pos = s->mark = 0;
    if (s->len == 0) {
        s->eof = 1;
        s->ioerr = ferror(s->f) ? (errno ? errno : EIO) : 0;
        return -1;
    }
    return 0;
}

/* The next byte without consuming it, -1 at the end. */
static int js_peek(JsonStream *s)
{
    if (s->pos == s->len && js_fill(s) < 0)
        return -1;
    return s->chunk[s->pos];
}

/* Consume the byte js_peek just returned. */
static void js_next(JsonStream *s)
{
    if (s->chunk[s->pos++] == '\n')
        s->line++;
}

static int js_is_ws(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Bytes that may make up true, false, null and numbers. */
static int js_is_scalar_byte(int c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '+' || c == '-' || c == '.';
}

static int js_is_delim(int c)
{
    return c < 0 || js_is_ws(c) || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' ||
           c == '}' || c == '"';
}

static void js_skip_ws(JsonStream *s)
{
    int c;
    while ((c = js_peek(s)) >= 0 && js_is_ws(c))
        js_next(s);
}

static int js_truncated(JsonStream *s)
{
    if (s->ioerr)
        return js_fatal(s, "read error: %s", strerror(s->ioerr));
    if (s->value_line >= 0)
        return js_fatal(s, "unexpected end of input inside the value that starts at line %lld",
                        (long long)s->value_line);
    return js_fatal(s, "unexpected end of input");
}

/* Skip the bytes of a string that need no attention, within the chunk. */
static void js_string_run(JsonStream *s)
{
    const unsigned char *p = s->chunk + s->pos, *end = s->chunk + s->len;
    while (p < end && *p != '"' && *p != '\\' && *p >= 0x20)
        p++;
    s->pos = (size_t)(p - s->chunk);
}

/* After "\\u": the four hex digits; \u0000 would cut the C string cJSON
 * gives (a user name read as its first letters): the element is bad. -1
 * at the end of input. */
static int js_nul_escape(JsonStream *s)
{
    int zeros = 0;
    for (int k = 0; k < 4; k++) {
        int h = js_peek(s);
        if (h < 0)
            return -1;
        if (h == '"' || h == '\\')
            return 0; /* short: cJSON refuses it */
        js_next(s);
        zeros += h == '0';
    }
    if (zeros == 4)
        js_set_bad(s, "a string holds \\u0000 (a NUL character) at line %lld",
                   (long long)s->line);
    return 0;
}

/* A string, at its opening quote. */
static int js_string(JsonStream *s)
{
    js_next(s);
    for (;;) {
        js_string_run(s);
        int c = js_peek(s);
        if (c < 0)
            return js_truncated(s);
        js_next(s);
        if (c == '"')
            return 0;
        if (c == '\\') {
            int e = js_peek(s);
            if (e < 0)
                return js_truncated(s);
            js_next(s);
            if (e == 'u' && js_nul_escape(s) < 0)
                return js_truncated(s);
        } else if (c < 0x20) {
            js_set_bad(s, "raw control byte 0x%02x inside a string at line %lld", (unsigned)c,
                       (long long)s->line);
        }
    }
}

/* true, false, null or a number: up to the next delimiter. */
static int js_scalar(JsonStream *s)
{
    char d[16];
    int c = js_peek(s);
    if (js_is_delim(c))
        return c < 0 ? js_truncated(s) : js_fatal(s, "expected a value, found %s", js_desc(c, d));
    for (; !js_is_delim(c); c = js_peek(s)) {
        if (!js_is_scalar_byte(c))
            js_set_bad(s, "unexpected %s at line %lld", js_desc(c, d), (long long)s->line);
        js_next(s);
    }
    return 0;
}

/* Account for one structural byte of a container; -1 if it breaks nesting. */
static int js_structure(JsonStream *s, int c, int *depth)
{
    char d[16];
    if (c == '{' || c == '[') {
        if (*depth == JS_MAX_DEPTH)
            return js_fatal(s, "nesting deeper than %d levels", JS_MAX_DEPTH);
        s->stack[(*depth)++] = (char)(c == '{' ? '}' : ']');
    } else if (c == '}' || c == ']') {
        if (s->stack[*depth - 1] != c)
            return js_fatal(s, "%s does not close '%c'", js_desc(c, d),
                            s->stack[*depth - 1] == '}' ? '{' : '[');
        (*depth)--;
    } else if (!js_is_ws(c) && c != ',' && c != ':' && !js_is_scalar_byte(c)) {
        js_set_bad(s, "unexpected %s at line %lld", js_desc(c, d), (long long)s->line);
    }
    return 0;
}

/* Skip whitespace, ',', ':' and scalar bytes within the chunk, counting lines. */
static void js_container_run(JsonStream *s)
{
    const unsigned char *p = s->chunk + s->pos, *end = s->chunk + s->len;
    int64_t lines = 0;
    for (; p < end && (js_is_ws(*p) || *p == ',' || *p == ':' || js_is_scalar_byte(*p)); p++)
        lines += *p == '\n';
    s->line += lines;
    s->pos = (size_t)(p - s->chunk);
}

/* An object or array, at its opening bracket, up to its matching close. */
static int js_container(JsonStream *s)
{
    int depth = 0;
    do {
        js_container_run(s);
        int c = js_peek(s);
        if (c < 0)
            return js_truncated(s);
        if (c == '"') {
            if (js_string(s) < 0)
                return -1;
            continue;
        }
        js_next(s);
        if (js_structure(s, c, &depth) < 0)
            return -1;
    } while (depth > 0);
    return 0;
}

/* Scan one value at the current byte; its text lands in val when capture. */
static int js_value(JsonStream *s, int capture, size_t limit)
{
    cpbuf_clear(&s->val);
    s->capturing = capture;
    s->limit = limit;
    s->too_big = 0;
    s->bad[0] = '\0';
    s->value_line = s->line;
    s->mark = s->pos;
    int c = js_peek(s);
    int rc = c == '"' ? js_string(s) : (c == '{' || c == '[') ? js_container(s) : js_scalar(s);
    if (rc == 0)
        js_flush(s);
    s->capturing = 0;
    s->value_line = -1;
    if (rc == 0 && s->too_big)
        js_set_bad(s, "value larger than %zu bytes", limit);
    return rc;
}

/* Parse the captured value; NULL (and bad set) if cJSON refuses it. */
static cJSON *js_parse(JsonStream *s, int64_t line)
{
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(s->val.data, s->val.len, &end, 0);
    if (v && end == s->val.data + s->val.len)
        return v;
    cJSON_Delete(v);
    const char *base = s->val.data;
    if (!end || end < base || end > base + s->val.len)
        end = base;
    for (const char *p = base; p < end; p++)
        line += *p == '\n';
    char near[24];
    size_t k = 0;
    for (const char *p = end; p < base + s->val.len && k + 1 < sizeof near; p++)
        near[k++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    near[k] = '\0';
    js_set_bad(s, "bad JSON at line %lld near '%s'", (long long)line, near);
    return NULL;
}

/* A value that cannot be used: to the bad callback, else stop. */
static int js_report_bad(JsonStream *s, int64_t line)
{
    if (s->o->bad)
        return s->o->bad(s->o->ctx, line, s->bad, s->err);
    return cp_err_set(s->err, "%s:%lld: %s", js_name(s), (long long)line, s->bad);
}

static void js_progress(JsonStream *s, int final)
{
    int64_t bytes = s->chunk_off + (int64_t)s->pos;
    if (!s->o->progress || (!final && bytes < s->next_progress))
        return;
    s->o->progress(s->o->ctx, bytes);
    s->next_progress = bytes + JS_PROGRESS_STEP;
}

/* One array element: scan, parse, hand over, free. */
static int js_element(JsonStream *s)
{
    int64_t line = s->line;
    if (js_value(s, 1, s->o->max_elem_bytes) < 0)
        return -1;
    cJSON *elem = s->bad[0] ? NULL : js_parse(s, line);
    if (!elem)
        return js_report_bad(s, line);
    int rc = s->o->each(s->o->ctx, elem, line, s->err);
    cJSON_Delete(elem);
    js_progress(s, 0);
    return rc;
}

/* The array, at its '['. */
static int js_array(JsonStream *s)
{
    char d[16];
    js_next(s);
    js_skip_ws(s);
    int c = js_peek(s);
    if (c == ']') {
        js_next(s);
        return 0;
    }
    for (;;) {
        int rc = js_element(s);
        if (rc != 0)
            return rc;
        js_skip_ws(s);
        c = js_peek(s);
        if (c < 0)
            return js_truncated(s);
        js_next(s);
        if (c == ']')
            return 0;
        if (c != ',')
            return js_fatal(s, "expected ',' or ']' after an array element, found %s",
                            js_desc(c, d));
        js_skip_ws(s);
    }
}

/* A member name, at its quote. Caller frees *key with free(). */
static int js_key(JsonStream *s, char **key)
{
    if (js_value(s, 1, JS_KEY_MAX) < 0)
        return -1;
    cJSON *k = s->bad[0] ? NULL : js_parse(s, s->line);
    if (!k || !cJSON_IsString(k)) {
        cJSON_Delete(k);
        return js_fatal(s, "bad member name: %s", s->bad[0] ? s->bad : "not a string");
    }
    *key = xstrdup(k->valuestring);
    cJSON_Delete(k);
    return 0;
}

/* Another member's value: parsed for the member callback, or skipped. */
static int js_member(JsonStream *s, const char *key)
{
    int64_t line = s->line;
    int want = s->o->member != NULL;
    if (js_value(s, want, s->o->max_elem_bytes) < 0)
        return -1;
    cJSON *v = s->bad[0] || !want ? NULL : js_parse(s, line);
    if (s->bad[0]) /* not an element: never skipped as a bad one */
        return cp_err_set(s->err, "%s:%lld: member \"%.64s\": %s", js_name(s), (long long)line,
                          key, s->bad);
    if (!want)
        return 0;
    int rc = s->o->member(s->o->ctx, key, v, line, s->err);
    cJSON_Delete(v);
    return rc;
}

/* One "key": value pair of the top-level object; the array if key matches. */
static int js_pair(JsonStream *s, int *found)
{
    char d[16];
    char *key = NULL;
    if (js_key(s, &key) < 0)
        return -1;
    js_skip_ws(s);
    int c = js_peek(s), rc;
    if (c != ':') {
        rc = c < 0 ? js_truncated(s)
                   : js_fatal(s, "expected ':' after \"%.64s\", found %s", key, js_desc(c, d));
    } else {
        js_next(s);
        js_skip_ws(s);
        c = js_peek(s);
        if (!*found && strcmp(key, s->o->key) == 0) {
            *found = 1;
            rc = c == '[' ? js_array(s)
                          : js_fatal(s, "member \"%.64s\" is not an array", s->o->key);
        } else {
            rc = js_member(s, key);
        }
    }
    free(key);
    return rc;
}

/* The top-level object, at its '{'. */
static int js_object(JsonStream *s)
{
    char d[16];
    int found = 0;
    js_next(s);
    js_skip_ws(s);
    int c = js_peek(s);
    if (c == '}')
        js_next(s);
    else
        for (;;) {
            if (c != '"')
                return c < 0 ? js_truncated(s)
                             : js_fatal(s, "expected a member name, found %s", js_desc(c, d));
            int rc = js_pair(s, &found);
            if (rc != 0)
                return rc;
            js_skip_ws(s);
            c = js_peek(s);
            if (c < 0)
                return js_truncated(s);
            js_next(s);
            if (c == '}')
                break;
            if (c != ',')
                return js_fatal(s, "expected ',' or '}' after a member, found %s",
                                js_desc(c, d));
            js_skip_ws(s);
            c = js_peek(s);
        }
    if (!found)
        return js_fatal(s, "no \"%.64s\" array in the top-level object", s->o->key);
    return 0;
}

/* A UTF-8 byte order mark, then whitespace. */
static int js_skip_bom(JsonStream *s)
{
    static const unsigned char bom[] = {0xEF, 0xBB, 0xBF};
    if (js_peek(s) != bom[0])
        return 0;
    for (int i = 0; i < 3; i++) {
        if (js_peek(s) != bom[i])
            return js_fatal(s, "not JSON: stray bytes at the start of the input");
        js_next(s);
    }
    return 0;
}

static int js_top(JsonStream *s)
{
    char d[16];
    if (js_skip_bom(s) < 0)
        return -1;
    js_skip_ws(s);
    int c = js_peek(s), rc;
    if (c < 0)
        return s->ioerr ? js_truncated(s) : js_fatal(s, "empty input: no JSON value");
    if (!s->o->key && c != '[')
        return js_fatal(s, "not a JSON array: expected '[', found %s", js_desc(c, d));
    if (s->o->key && c != '{')
        return js_fatal(s, "not a JSON object: expected '{', found %s", js_desc(c, d));
    rc = s->o->key ? js_object(s) : js_array(s);
    if (rc != 0)
        return rc;
    js_skip_ws(s);
    c = js_peek(s);
    if (c >= 0)
        return js_fatal(s, "junk after the end of the JSON value: %s", js_desc(c, d));
    if (s->ioerr)
        return js_truncated(s);
    js_progress(s, 1);
    return 0;
}

int json_stream_run(FILE *f, const JsonStreamOpts *o, CpErr *err)
{
    JsonStream *s = xcalloc(1, sizeof *s);
    s->f = f;
    s->o = o;
    s->err = err;
    s->chunk = xmalloc(JS_CHUNK);
    s->line = 1;
    s->value_line = -1;
    s->next_progress = JS_PROGRESS_STEP;
    cpbuf_init(&s->val);
    int rc = js_top(s);
    cpbuf_done(&s->val);
    free(s->chunk);
    free(s);
    return rc;
}

int json_stream_array(FILE *f, const char *key, JsonStreamElemFn each, void *ctx,
                      size_t max_elem_bytes, CpErr *err)
{
    JsonStreamOpts o = {.key = key, .max_elem_bytes = max_elem_bytes, .each = each, .ctx = ctx};
    return json_stream_run(f, &o, err);
}
