#include "data/ingest/textenc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

int textenc_parse(const char *name, TextEnc *out, CpErr *err)
{
    static const struct {
        const char *name;
        TextEnc enc;
    } names[] = {
        {"utf-8", TEXTENC_UTF8},       {"utf8", TEXTENC_UTF8},
        {"latin1", TEXTENC_LATIN1},    {"latin-1", TEXTENC_LATIN1},
        {"iso-8859-1", TEXTENC_LATIN1}, {"iso8859-1", TEXTENC_LATIN1},
        {"cp1252", TEXTENC_CP1252},    {"windows-1252", TEXTENC_CP1252},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(name, names[i].name) == 0) {
            *out = names[i].enc;
            return 0;
        }
    return cp_err_set(err, "unknown encoding '%.40s' (utf-8, latin1 or cp1252)", name);
}

/* Length of the well-formed UTF-8 sequence at s (n bytes left), 0 if bad. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    if (c >= 0x01 && c < 0x80)
        return 1;
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0; /* no overlong forms */
        if (c == 0xED)
            hi = 0x9F; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        if (c == 0xF4)
            hi = 0x8F; /* nothing above U+10FFFF */
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

/* 1 when none of the 8 bytes of w is 0 or above 0x7F. */
static int ascii8(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    return !(w & highs) && !((w - ones) & ~w & highs);
}

size_t textenc_utf8_bad(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        uint64_t w;
        if (n - i >= 8 && (memcpy(&w, u + i, 8), ascii8(w))) { /* plain ASCII, 8 at a time */
            i += 8;
            continue;
        }
        size_t k = utf8_seq(u + i, n - i);
        if (k == 0)
            return i;
        i += k;
    }
    return n;
}

int textenc_bad_reason(const char *s, size_t off, CpErr *err)
{
    unsigned char c = (unsigned char)s[off];
    if (c == 0)
        return cp_err_set(err, "NUL byte at column %zu", off + 1);
    return cp_err_set(err,
                      "not UTF-8 (byte 0x%02X at column %zu): if the file is Latin-1 or "
                      "Windows-1252, give --encoding latin1 or cp1252",
                      c, off + 1);
}

/* ---- the converting stream ---- */

/* Windows-1252's 0x80..0x9F; the five bytes it leaves undefined keep their
 * Latin-1 (C1 control) meaning, as the WHATWG encoding standard says. */
static const unsigned short cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

#define TE_IN 16384

typedef struct TeStream {
    FILE *under;
    TextEnc enc;
    unsigned char in[TE_IN];
    size_t in_len, in_pos;
    unsigned char pend[3]; /* the rest of a character that did not fit */
    size_t pend_len;
} TeStream;

/* UTF-8 of byte c in the stream's encoding into out; returns its length. */
static size_t te_char(const TeStream *t, unsigned char c, unsigned char out[3])
{
    unsigned cp = c;
    if (t->enc == TEXTENC_UTF8) { /* bytes pass unchanged */
        out[0] = c;
        return 1;
    }
    if (t->enc == TEXTENC_CP1252 && c >= 0x80 && c <= 0x9F)
        cp = cp1252_high[c - 0x80];
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | cp >> 6);
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    out[0] = (unsigned char)(0xE0 | cp >> 12);
    out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
}

static ssize_t te_read(void *cookie, char *buf, size_t size)
{
    TeStream *t = cookie;
    size_t o = 0;
    while (o < size && t->pend_len > 0) {
        buf[o++] = (char)t->pend[0];
        memmove(t->pend, t->pend + 1, --t->pend_len);
    }
    while (o < size) {
        if (t->in_pos == t->in_len) {
            if (o > 0)
                break; /* hand over what we have before reading again */
            t->in_len = fread(t->in, 1, TE_IN, t->under);
            t->in_pos = 0;
            if (t->in_len == 0)
                return ferror(t->under) && o == 0 ? -1 : (ssize_t)o;
        }
        unsigned char ch[3];
        size_t k = te_char(t, t->in[t->in_pos++], ch);
        for (size_t i = 0; i < k; i++) {
            if (o < size)
                buf[o++] = (char)ch[i];
            else
                t->pend[t->pend_len++] = ch[i];
        }
    }
    return (ssize_t)o;
}

static int te_close(void *cookie)
{
    free(cookie);
    return 0;
}

FILE *textenc_open(FILE *f, TextEnc enc)
{
    TeStream *t = xcalloc(1, sizeof *t);
    t->under = f;
    t->enc = enc;
    cookie_io_functions_t io = {te_read, NULL, NULL, te_close};
    FILE *out = fopencookie(t, "r", io);
    if (!out)
        free(t);
    return out;
}
