#include "reports/anon.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/strmap.h"

static unsigned char site_key[64];
static size_t site_keylen;

void anon_hmac_sha256(const unsigned char *key, size_t keylen, const unsigned char *msg,
                      size_t msglen, unsigned char out[32])
{
    unsigned int len = 32;
    static const unsigned char none = 0;
    /* OpenSSL wants a non-NULL pointer even for an empty message */
    if (!HMAC(EVP_sha256(), key, (int)keylen, msglen ? msg : &none, msglen, out, &len))
        memset(out, 0, 32); /* cannot happen with SHA-256; never an unkeyed fallback */
}

void anon_set_key(const unsigned char *key, size_t keylen)
{
    site_keylen = keylen < sizeof site_key ? keylen : sizeof site_key;
    memcpy(site_key, key, site_keylen);
}

int anon_has_key(void)
{
    return site_keylen > 0;
}

void anon_name(const char *prefix, const char *name, char *buf, size_t n)
{
    static const char digits[] = "abcdefghijkmnpqrstuvwxyz23456789"; /* 32, no look-alikes */
    CpBuf msg;
    cpbuf_init(&msg);
    cpbuf_append(&msg, prefix, strlen(prefix) + 1); /* kind NUL name */
    cpbuf_append(&msg, name, strlen(name));
    unsigned char mac[32];
    anon_hmac_sha256(site_key, site_keylen, (const unsigned char *)msg.data, msg.len, mac);
    cpbuf_done(&msg);
    uint64_t h = 0;
    for (int i = 0; i < 8; i++)
        h = h << 8 | mac[i];
    char code[7];
    for (int i = 0; i < 6; i++, h >>= 5)
        code[i] = digits[h & 31];
    code[6] = '\0';
    snprintf(buf, n, "%s-%s", prefix, code);
}

const char *anon_maybe(int on, const char *prefix, const char *name, char *buf, size_t n)
{
    if (!on || !name || strcmp(name, "all") == 0)
        return name;
    anon_name(prefix, name, buf, n);
    return buf;
}

/* ---- the scrubber ---- */

static const AnonScrub *active;

void anon_scrub_activate(const AnonScrub *a)
{
    active = a;
}

const AnonScrub *anon_scrub_current(void)
{
    return active;
}

struct AnonScrub {
    StrMap *index; /* lower-cased name -> index in repl */
    char **repl;
    size_t n, cap;
    size_t maxlen; /* longest name, bytes */
};

AnonScrub *anon_scrub_new(void)
{
    AnonScrub *a = xcalloc(1, sizeof *a);
    a->index = strmap_new();
    return a;
}

void anon_scrub_free(AnonScrub *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++)
        free(a->repl[i]);
    free(a->repl);
    strmap_free(a->index);
    free(a);
}

static int is_word(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           c == '_' || c >= 0x80;
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Trimmed name s[0..len) lower-cased -> repl, unless short or known. */
static void add_one(AnonScrub *a, const char *s, size_t len, const char *repl)
{
    while (len && (s[0] == ' ' || s[0] == '\t'))
        s++, len--;
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len < ANON_MIN_NAME || len > 200 || !is_word((unsigned char)s[0]) ||
        !is_word((unsigned char)s[len - 1]))
        return;
    char key[201];
    for (size_t i = 0; i < len; i++)
        key[i] = lower(s[i]);
    int64_t idx;
    if (strmap_get(a->index, key, len, &idx))
        return;
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->repl = xrealloc(a->repl, a->cap * sizeof *a->repl);
    }
    a->repl[a->n] = xstrdup(repl);
    strmap_put(a->index, key, len, (int64_t)a->n);
    a->n++;
    if (len > a->maxlen)
        a->maxlen = len;
}

void anon_scrub_add(AnonScrub *a, const char *name, const char *repl)
{
    if (!name)
        return;
    size_t len = strlen(name);
    if (len == 3 && memcmp(name, "all", 3) == 0)
        return;
    add_one(a, name, len, repl);
    if (!strchr(name, ' '))
        return;
    for (const char *p = name; *p;) { /* a surname alone: each capitalised word */
        while (*p == ' ')
            p++;
        const char *e = p;
        while (*e && *e != ' ')
            e++;
        if (*p >= 'A' && *p <= 'Z')
            add_one(a, p, (size_t)(e - p), repl);
        p = e;
    }
}

void anon_scrub_add_kind(AnonScrub *a, const char *prefix, const char *name)
{
    char buf[64];
    if (!name || !name[0])
        return;
    anon_name(prefix, name, buf, sizeof buf);
    anon_scrub_add(a, name, buf);
}

size_t anon_scrub_count(const AnonScrub *a)
{
    return a->n;
}

/* The longest known name starting at s (a token start), its length in
 * *len and replacement, or NULL. */
static const char *match_at(const AnonScrub *a, const char *s, size_t *len)
{
    char low[256];
    size_t n = 0;
    while (n < a->maxlen && n < sizeof low && s[n]) {
        low[n] = lower(s[n]);
        n++;
    }
    for (size_t l = n; l >= ANON_MIN_NAME; l--) {
        if (is_word((unsigned char)s[l]) || !is_word((unsigned char)s[l - 1]))
            continue; /* not a token's end */
        int64_t idx;
        if (strmap_get(a->index, low, l, &idx)) {
            *len = l;
            return a->repl[idx];
        }
    }
    return NULL;
}

/* Scrub text[0..n) into out. */
static void scrub_span(const AnonScrub *a, const char *text, size_t n, CpBuf *out)
{
    size_t i = 0, plain = 0;
    while (i < n) {
        size_t len = 0;
        const char *r = NULL;
        if ((i == 0 || !is_word((unsigned char)text[i - 1])) && is_word((unsigned char)text[i]) &&
            a->n)
            r = match_at(a, text + i, &len);
        if (r && i + len <= n) {
            cpbuf_append(out, text + plain, i - plain);
            cpbuf_append(out, r, strlen(r));
            i += len;
            plain = i;
        } else {
            i++;
        }
    }
    cpbuf_append(out, text + plain, n - plain);
}

char *anon_scrub_text(const AnonScrub *a, const char *text)
{
    CpBuf out;
    cpbuf_init(&out);
    cpbuf_append(&out, "", 0);
    scrub_span(a, text, strlen(text), &out);
    return out.data;
}

char *anon_scrub_buf(const AnonScrub *a, const char *text, char *buf, size_t n)
{
    char *s = anon_scrub_text(a, text);
    size_t len = strlen(s);
    if (len >= n) {
        len = n - 1;
        while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
            len--; /* not inside a UTF-8 sequence */
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    free(s);
    return buf;
}

char *anon_scrub_xml(const AnonScrub *a, const char *text)
{
    CpBuf out;
    cpbuf_init(&out);
    cpbuf_append(&out, "", 0);
    const char *p = text;
    while (*p) {
        const char *lt = strchr(p, '<');
        size_t n = lt ? (size_t)(lt - p) : strlen(p);
        scrub_span(a, p, n, &out); /* character data */
        p += n;
        if (!lt)
            break;
        while (*p && *p != '>') { /* a tag: only quoted values */
            if (*p == '"' || *p == '\'') {
                const char *q = strchr(p + 1, *p);
                size_t vn = q ? (size_t)(q - p - 1) : strlen(p + 1);
                cpbuf_append(&out, p, 1);
                scrub_span(a, p + 1, vn, &out);
                p += 1 + vn;
                if (*p)
                    cpbuf_append(&out, p++, 1);
            } else {
                cpbuf_append(&out, p++, 1);
            }
        }
        if (*p)
            cpbuf_append(&out, p++, 1);
    }
    return out.data;
}
