#include "core/names.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/strmap.h"

/* LaTeX accent + letter -> UTF-8 (precomposed). */
static const struct { char acc, letter; const char *utf8; } accents[] = {
    {'"', 'a', "\xc3\xa4"}, {'"', 'e', "\xc3\xab"}, {'"', 'i', "\xc3\xaf"}, {'"', 'o', "\xc3\xb6"},
    {'"', 'u', "\xc3\xbc"}, {'"', 'y', "\xc3\xbf"}, {'"', 't', "\xe1\xba\x97"}, {'"', 'A', "\xc3\x84"},
    {'"', 'E', "\xc3\x8b"}, {'"', 'I', "\xc3\x8f"}, {'"', 'O', "\xc3\x96"}, {'"', 'U', "\xc3\x9c"},
    {'"', 'Y', "\xc5\xb8"}, {'\'', 'a', "\xc3\xa1"}, {'\'', 'e', "\xc3\xa9"}, {'\'', 'i', "\xc3\xad"},
    {'\'', 'o', "\xc3\xb3"}, {'\'', 'u', "\xc3\xba"}, {'\'', 'y', "\xc3\xbd"}, {'\'', 'c', "\xc4\x87"},
    {'\'', 'n', "\xc5\x84"}, {'\'', 's', "\xc5\x9b"}, {'\'', 'z', "\xc5\xba"}, {'\'', 'r', "\xc5\x95"},
    {'\'', 'g', "\xc7\xb5"}, {'\'', 'l', "\xc4\xba"}, {'\'', 'k', "\xe1\xb8\xb1"}, {'\'', 'A', "\xc3\x81"},
    {'\'', 'E', "\xc3\x89"}, {'\'', 'I', "\xc3\x8d"}, {'\'', 'O', "\xc3\x93"}, {'\'', 'U', "\xc3\x9a"},
    {'\'', 'Y', "\xc3\x9d"}, {'\'', 'C', "\xc4\x86"}, {'\'', 'N', "\xc5\x83"}, {'\'', 'S', "\xc5\x9a"},
    {'\'', 'Z', "\xc5\xb9"}, {'\'', 'R', "\xc5\x94"}, {'\'', 'G', "\xc7\xb4"}, {'\'', 'L', "\xc4\xb9"},
    {'\'', 'K', "\xe1\xb8\xb0"}, {'`', 'a', "\xc3\xa0"}, {'`', 'e', "\xc3\xa8"}, {'`', 'i', "\xc3\xac"},
    {'`', 'o', "\xc3\xb2"}, {'`', 'u', "\xc3\xb9"}, {'`', 'y', "\xe1\xbb\xb3"}, {'`', 'n', "\xc7\xb9"},
    {'`', 'A', "\xc3\x80"}, {'`', 'E', "\xc3\x88"}, {'`', 'I', "\xc3\x8c"}, {'`', 'O', "\xc3\x92"},
    {'`', 'U', "\xc3\x99"}, {'`', 'Y', "\xe1\xbb\xb2"}, {'`', 'N', "\xc7\xb8"}, {'^', 'a', "\xc3\xa2"},
    {'^', 'e', "\xc3\xaa"}, {'^', 'i', "\xc3\xae"}, {'^', 'o', "\xc3\xb4"}, {'^', 'u', "\xc3\xbb"},
    {'^', 'y', "\xc5\xb7"}, {'^', 'c', "\xc4\x89"}, {'^', 's', "\xc5\x9d"}, {'^', 'z', "\xe1\xba\x91"},
    {'^', 'g', "\xc4\x9d"}, {'^', 'A', "\xc3\x82"}, {'^', 'E', "\xc3\x8a"}, {'^', 'I', "\xc3\x8e"},
    {'^', 'O', "\xc3\x94"}, {'^', 'U', "\xc3\x9b"}, {'^', 'Y', "\xc5\xb6"}, {'^', 'C', "\xc4\x88"},
    {'^', 'S', "\xc5\x9c"}, {'^', 'Z', "\xe1\xba\x90"}, {'^', 'G', "\xc4\x9c"}, {'~', 'a', "\xc3\xa3"},
    {'~', 'e', "\xe1\xba\xbd"}, {'~', 'i', "\xc4\xa9"}, {'~', 'o', "\xc3\xb5"}, {'~', 'u', "\xc5\xa9"},
    {'~', 'y', "\xe1\xbb\xb9"}, {'~', 'n', "\xc3\xb1"}, {'~', 'A', "\xc3\x83"}, {'~', 'E', "\xe1\xba\xbc"},
    {'~', 'I', "\xc4\xa8"}, {'~', 'O', "\xc3\x95"}, {'~', 'U', "\xc5\xa8"}, {'~', 'Y', "\xe1\xbb\xb8"},
    {'~', 'N', "\xc3\x91"}, {'=', 'a', "\xc4\x81"}, {'=', 'e', "\xc4\x93"}, {'=', 'i', "\xc4\xab"},
    {'=', 'o', "\xc5\x8d"}, {'=', 'u', "\xc5\xab"}, {'=', 'y', "\xc8\xb3"}, {'=', 'g', "\xe1\xb8\xa1"},
    {'=', 'A', "\xc4\x80"}, {'=', 'E', "\xc4\x92"}, {'=', 'I', "\xc4\xaa"}, {'=', 'O', "\xc5\x8c"},
    {'=', 'U', "\xc5\xaa"}, {'=', 'Y', "\xc8\xb2"}, {'=', 'G', "\xe1\xb8\xa0"}, {'.', 'a', "\xc8\xa7"},
    {'.', 'e', "\xc4\x97"}, {'.', 'o', "\xc8\xaf"}, {'.', 'y', "\xe1\xba\x8f"}, {'.', 'c', "\xc4\x8b"},
    {'.', 'n', "\xe1\xb9\x85"}, {'.', 's', "\xe1\xb9\xa1"}, {'.', 'z', "\xc5\xbc"}, {'.', 'r', "\xe1\xb9\x99"},
    {'.', 'g', "\xc4\xa1"}, {'.', 'd', "\xe1\xb8\x8b"}, {'.', 't', "\xe1\xb9\xab"}, {'.', 'A', "\xc8\xa6"},
    {'.', 'E', "\xc4\x96"}, {'.', 'I', "\xc4\xb0"}, {'.', 'O', "\xc8\xae"}, {'.', 'Y', "\xe1\xba\x8e"},
    {'.', 'C', "\xc4\x8a"}, {'.', 'N', "\xe1\xb9\x84"}, {'.', 'S', "\xe1\xb9\xa0"}, {'.', 'Z', "\xc5\xbb"},
    {'.', 'R', "\xe1\xb9\x98"}, {'.', 'G', "\xc4\xa0"}, {'.', 'D', "\xe1\xb8\x8a"}, {'.', 'T', "\xe1\xb9\xaa"},
    {'u', 'a', "\xc4\x83"}, {'u', 'e', "\xc4\x95"}, {'u', 'i', "\xc4\xad"}, {'u', 'o', "\xc5\x8f"},
    {'u', 'u', "\xc5\xad"}, {'u', 'g', "\xc4\x9f"}, {'u', 'A', "\xc4\x82"}, {'u', 'E', "\xc4\x94"},
    {'u', 'I', "\xc4\xac"}, {'u', 'O', "\xc5\x8e"}, {'u', 'U', "\xc5\xac"}, {'u', 'G', "\xc4\x9e"},
    {'v', 'a', "\xc7\x8e"}, {'v', 'e', "\xc4\x9b"}, {'v', 'i', "\xc7\x90"}, {'v', 'o', "\xc7\x92"},
    {'v', 'u', "\xc7\x94"}, {'v', 'c', "\xc4\x8d"}, {'v', 'n', "\xc5\x88"}, {'v', 's', "\xc5\xa1"},
    {'v', 'z', "\xc5\xbe"}, {'v', 'r', "\xc5\x99"}, {'v', 'g', "\xc7\xa7"}, {'v', 'd', "\xc4\x8f"},
    {'v', 'l', "\xc4\xbe"}, {'v', 't', "\xc5\xa5"}, {'v', 'k', "\xc7\xa9"}, {'v', 'A', "\xc7\x8d"},
    {'v', 'E', "\xc4\x9a"}, {'v', 'I', "\xc7\x8f"}, {'v', 'O', "\xc7\x91"}, {'v', 'U', "\xc7\x93"},
    {'v', 'C', "\xc4\x8c"}, {'v', 'N', "\xc5\x87"}, {'v', 'S', "\xc5\xa0"}, {'v', 'Z', "\xc5\xbd"},
    {'v', 'R', "\xc5\x98"}, {'v', 'G', "\xc7\xa6"}, {'v', 'D', "\xc4\x8e"}, {'v', 'L', "\xc4\xbd"},
    {'v', 'T', "\xc5\xa4"}, {'v', 'K', "\xc7\xa8"}, {'H', 'o', "\xc5\x91"}, {'H', 'u', "\xc5\xb1"},
    {'H', 'O', "\xc5\x90"}, {'H', 'U', "\xc5\xb0"}, {'c', 'e', "\xc8\xa9"}, {'c', 'c', "\xc3\xa7"},
    {'c', 'n', "\xc5\x86"}, {'c', 's', "\xc5\x9f"}, {'c', 'r', "\xc5\x97"}, {'c', 'g', "\xc4\xa3"},
    {'c', 'd', "\xe1\xb8\x91"}, {'c', 'l', "\xc4\xbc"}, {'c', 't', "\xc5\xa3"}, {'c', 'k', "\xc4\xb7"},
    {'c', 'E', "\xc8\xa8"}, {'c', 'C', "\xc3\x87"}, {'c', 'N', "\xc5\x85"}, {'c', 'S', "\xc5\x9e"},
    {'c', 'R', "\xc5\x96"}, {'c', 'G', "\xc4\xa2"}, {'c', 'D', "\xe1\xb8\x90"}, {'c', 'L', "\xc4\xbb"},
    {'c', 'T', "\xc5\xa2"}, {'c', 'K', "\xc4\xb6"}, {'k', 'a', "\xc4\x85"}, {'k', 'e', "\xc4\x99"},
    {'k', 'i', "\xc4\xaf"}, {'k', 'o', "\xc7\xab"}, {'k', 'u', "\xc5\xb3"}, {'k', 'A', "\xc4\x84"},
    {'k', 'E', "\xc4\x98"}, {'k', 'I', "\xc4\xae"}, {'k', 'O', "\xc7\xaa"}, {'k', 'U', "\xc5\xb2"},
    {'r', 'a', "\xc3\xa5"}, {'r', 'u', "\xc5\xaf"}, {'r', 'y', "\xe1\xba\x99"}, {'r', 'A', "\xc3\x85"},
    {'r', 'U', "\xc5\xae"},
};

/* U+00C0..U+024F folded to lower-case ASCII ('' for signs). */
static const char *const fold_latin[0x250 - 0xC0] = {
    "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e",
    "i", "i", "i", "i", "d", "n", "o", "o", "o", "o", "o", "",
    "o", "u", "u", "u", "u", "y", "th", "ss", "a", "a", "a", "a",
    "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",
    "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u",
    "u", "y", "th", "y", "a", "a", "a", "a", "a", "a", "c", "c",
    "c", "c", "c", "c", "c", "c", "d", "d", "d", "d", "e", "e",
    "e", "e", "e", "e", "e", "e", "e", "e", "g", "g", "g", "g",
    "g", "g", "g", "g", "h", "h", "h", "h", "i", "i", "i", "i",
    "i", "i", "i", "i", "i", "i", "ij", "ij", "j", "j", "k", "k",
    "k", "l", "l", "l", "l", "l", "l", "l", "l", "l", "l", "n",
    "n", "n", "n", "n", "n", "n", "n", "n", "o", "o", "o", "o",
    "o", "o", "oe", "oe", "r", "r", "r", "r", "r", "r", "s", "s",
    "s", "s", "s", "s", "s", "s", "t", "t", "t", "t", "t", "t",
    "u", "u", "u", "u", "u", "u", "u", "u", "u", "u", "u", "u",
    "w", "w", "y", "y", "y", "z", "z", "z", "z", "z", "z", "s",
    "", "", "", "", "", "", "", "", "", "", "", "",
    "", "", "", "", "", "", "f", "", "", "", "", "",
    "", "", "", "", "", "", "", "", "o", "o", "", "",
    "", "", "", "", "", "", "", "", "", "", "", "u",
    "u", "", "", "", "", "", "", "", "", "", "", "",
    "", "", "", "", "", "", "", "", "dz", "dz", "dz", "lj",
    "lj", "lj", "nj", "nj", "nj", "a", "a", "i", "i", "o", "o", "u",
    "u", "u", "u", "u", "u", "u", "u", "u", "u", "", "a", "a",
    "a", "a", "", "", "", "", "g", "g", "k", "k", "o", "o",
    "o", "o", "", "", "j", "dz", "dz", "dz", "g", "g", "", "",
    "n", "n", "a", "a", "", "", "", "", "a", "a", "a", "a",
    "e", "e", "e", "e", "i", "i", "i", "i", "o", "o", "o", "o",
    "r", "r", "r", "r", "u", "u", "u", "u", "s", "s", "t", "t",
    "", "", "h", "h", "", "", "", "", "", "", "a", "a",
    "e", "e", "o", "o", "o", "o", "o", "o", "o", "o", "y", "y",
    "", "", "", "", "", "", "", "", "", "", "", "",
    "", "", "", "", "", "", "", "", "", "", "", "",
    "", "", "", "",
};

/* Letter commands: \ss -> ß and the like. */
static const struct {
    const char *cmd, *utf8;
} letters[] = {
    {"ss", "\xc3\x9f"}, {"o", "\xc3\xb8"}, {"O", "\xc3\x98"}, {"l", "\xc5\x82"},
    {"L", "\xc5\x81"},  {"aa", "\xc3\xa5"}, {"AA", "\xc3\x85"}, {"ae", "\xc3\xa6"},
    {"AE", "\xc3\x86"}, {"oe", "\xc5\x93"}, {"OE", "\xc5\x92"}, {"i", "i"},
    {"j", "j"},
};

/* A growing output buffer. */
typedef struct Buf {
    char *p;
    size_t n, cap;
} Buf;

static void buf_put(Buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        while (b->n + n + 1 > b->cap)
            b->cap = b->cap ? b->cap * 2 : 64;
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void buf_ch(Buf *b, char c)
{
    buf_put(b, &c, 1);
}

static int is_accent_sym(char c)
{
    return c && strchr("\"'`^~=.", c) != NULL;
}

static int is_accent_word(const char *w, size_t n)
{
    return n == 1 && strchr("uvHckrdb", w[0]) != NULL;
}

/* The letter an accent applies to, after spaces and '{'; *s moves past it. */
static char accent_arg(const char **s)
{
    const char *p = *s;
    while (*p == ' ' || *p == '{')
        p++;
    if (p[0] == '\\' && (p[1] == 'i' || p[1] == 'j') && !isalpha((unsigned char)p[2]))
        p++;
    char c = *p;
    if (c && isalpha((unsigned char)c)) {
        *s = p + 1;
        return c;
    }
    return 0;
}

static void put_accented(Buf *b, char acc, char letter)
{
    for (size_t i = 0; i < sizeof accents / sizeof accents[0]; i++)
        if (accents[i].acc == acc && accents[i].letter == letter) {
            buf_put(b, accents[i].utf8, strlen(accents[i].utf8));
            return;
        }
    buf_ch(b, letter);
}

/* One command after its backslash; returns where the text goes on. */
static const char *command(Buf *b, const char *s)
{
    if (!isalpha((unsigned char)*s)) {
        if (is_accent_sym(*s)) {
            char acc = *s++;
            char l = accent_arg(&s);
            if (l)
                put_accented(b, acc, l);
            return s;
        }
        if (*s == '\\' || *s == '\0') {
            buf_ch(b, ' ');
            return *s ? s + 1 : s;
        }
        buf_ch(b, *s); /* \& \% \_ \$ \# \{ \} */
        return s + 1;
    }
    const char *w = s;
    while (isalpha((unsigned char)*s))
        s++;
    size_t n = (size_t)(s - w);
    if (is_accent_word(w, n)) {
        char l = accent_arg(&s);
        if (l)
            put_accented(b, w[0], l);
        return s;
    }
    for (size_t i = 0; i < sizeof letters / sizeof letters[0]; i++)
        if (strlen(letters[i].cmd) == n && memcmp(letters[i].cmd, w, n) == 0) {
            buf_put(b, letters[i].utf8, strlen(letters[i].utf8));
            return s;
        }
    while (*s == ' ')
        s++;
    return s; /* \emph, \textbf, ...: the command goes, its argument stays */
}

/* Collapse runs of white space into one space and trim, in place. */
static void collapse(char *s)
{
    char *o = s;
    int space = 0;
    for (const char *p = s; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            space = o != s;
            continue;
        }
        if (space)
            *o++ = ' ';
        space = 0;
        *o++ = *p;
    }
    *o = '\0';
}

char *names_text(const char *s)
{
    Buf b = {0};
    buf_put(&b, "", 0);
    while (*s) {
        char c = *s++;
        if (c == '\\')
            s = command(&b, s);
        else if (c == '~')
            buf_ch(&b, ' ');
        else if (c != '{' && c != '}' && c != '$')
            buf_ch(&b, c);
    }
    collapse(b.p);
    return b.p;
}

/* Split at depth-0 commas: "von Last, Jr, First" -> "First von Last Jr". */
static char *reorder(const char *s)
{
    const char *comma[2];
    int nc = 0, depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '{')
            depth++;
        else if (*p == '}' && depth > 0)
            depth--;
        else if (*p == ',' && depth == 0 && nc < 2)
            comma[nc++] = p;
    }
    if (nc == 0)
        return xstrdup(s);
    Buf b = {0};
    const char *first = comma[nc - 1] + 1;
    buf_put(&b, first, strlen(first));
    buf_ch(&b, ' ');
    buf_put(&b, s, (size_t)(comma[0] - s));
    if (nc == 2) {
        buf_ch(&b, ' ');
        buf_put(&b, comma[0] + 1, (size_t)(comma[1] - comma[0] - 1));
    }
    return b.p;
}

/* UTF-8 sequence at s (n bytes left): its code point and length, or
 * length 1 and -1 when malformed. */
static int32_t utf8_cp(const unsigned char *s, int *len)
{
    if (s[0] < 0xC0 || s[0] >= 0xF8 || (s[1] & 0xC0) != 0x80) {
        *len = 1;
        return -1;
    }
    if (s[0] < 0xE0) {
        *len = 2;
        return ((s[0] & 0x1F) << 6) | (s[1] & 0x3F);
    }
    if ((s[2] & 0xC0) != 0x80) {
        *len = 1;
        return -1;
    }
    if (s[0] < 0xF0) {
        *len = 3;
        return ((s[0] & 0x0F) << 12) | ((s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    }
    if ((s[3] & 0xC0) != 0x80) {
        *len = 1;
        return -1;
    }
    *len = 4;
    return ((s[0] & 0x07) << 18) | ((s[1] & 0x3F) << 12) | ((s[2] & 0x3F) << 6) | (s[3] & 0x3F);
}

/* Fold to lower-case ASCII words separated by single spaces. */
char *names_fold(const char *s)
{
    Buf b = {0};
    buf_put(&b, "", 0);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p < 0x80) {
            buf_ch(&b, isalnum(*p) ? (char)tolower(*p) : ' ');
            p++;
            continue;
        }
        int len;
        int32_t cp = utf8_cp(p, &len);
        if (cp >= 0xC0 && cp < 0x250)
            buf_put(&b, fold_latin[cp - 0xC0], strlen(fold_latin[cp - 0xC0]));
        else if (cp >= 0x300 && cp < 0x370)
            ; /* a combining mark: the letter before it stays */
        else if (cp > 0)
            buf_put(&b, (const char *)p, (size_t)len);
        else
            buf_ch(&b, ' ');
        p += len;
    }
    collapse(b.p);
    return b.p;
}

/* Drop "jr", "sr", "ii", "iii" tokens, in place. */
static void drop_suffixes(char *k)
{
    static const char *const drop[] = {"jr", "sr", "ii", "iii"};
    char *o = k;
    for (char *t = k; *t;) {
        char *e = strchr(t, ' ');
        size_t n = e ? (size_t)(e - t) : strlen(t);
        int keep = 1;
        for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
            if (strlen(drop[i]) == n && memcmp(drop[i], t, n) == 0)
                keep = 0;
        if (keep) {
            if (o != k)
                *o++ = ' ';
            memmove(o, t, n);
            o += n;
        }
        t += n;
        while (*t == ' ')
            t++;
    }
    *o = '\0';
}

char *names_key(const char *name)
{
    char *r = reorder(name);
    char *t = names_text(r);
    char *k = names_fold(t);
    free(r);
    free(t);
    drop_suffixes(k);
    return k;
}

/* ---- the index ---- */

/* A key's value: a person id (>= 0), or -(NAMES_LIST + i) for the list
 * lists[i] of the several people who share it. */
#define NAMES_LIST 10

struct NamesIndex {
    StrMap *full;     /* whole key */
    StrMap *short_;   /* first token + last token */
    StrMap *initial;  /* first initial + last token */
    int **lists;      /* nlists: ids sharing a key, each -1 terminated */
    int nlists;
};

NamesIndex *names_index_new(void)
{
    NamesIndex *ix = xmalloc(sizeof *ix);
    ix->full = strmap_new();
    ix->short_ = strmap_new();
    ix->initial = strmap_new();
    ix->lists = NULL;
    ix->nlists = 0;
    return ix;
}

void names_index_free(NamesIndex *ix)
{
    if (!ix)
        return;
    strmap_free(ix->full);
    strmap_free(ix->short_);
    strmap_free(ix->initial);
    for (int i = 0; i < ix->nlists; i++)
        free(ix->lists[i]);
    free(ix->lists);
    free(ix);
}

/* key -> id; a key several people share keeps them all (a list). */
static void put(NamesIndex *ix, StrMap *m, const char *k, size_t n, int id)
{
    int64_t v;
    if (n == 0)
        return;
    if (!strmap_get(m, k, n, &v)) {
        strmap_put(m, k, n, id);
        return;
    }
    if (v == id)
        return;
    int *l;
    int len = 0;
    if (v >= 0) {
        ix->lists = xrealloc(ix->lists, (size_t)(ix->nlists + 1) * sizeof *ix->lists);
        l = xmalloc(2 * sizeof *l);
        l[0] = (int)v;
        l[1] = -1;
        ix->lists[ix->nlists] = l;
        strmap_put(m, k, n, -(NAMES_LIST + ix->nlists));
        v = -(NAMES_LIST + ix->nlists++);
    }
    l = ix->lists[-v - NAMES_LIST];
    while (l[len] >= 0)
        if (l[len++] == id)
            return;
    l = xrealloc(l, (size_t)(len + 2) * sizeof *l);
    l[len] = id;
    l[len + 1] = -1;
    ix->lists[-v - NAMES_LIST] = l;
}

/* The first and last tokens of key k (at least one token). */
static void ends(const char *k, const char **first, size_t *nfirst, const char **last)
{
    const char *sp = strchr(k, ' ');
    *first = k;
    *nfirst = sp ? (size_t)(sp - k) : strlen(k);
    const char *ls = strrchr(k, ' ');
    *last = ls ? ls + 1 : k;
}

/* given + " " + last into out (cap bytes); its length, 0 if too long. */
static size_t join2(char *out, size_t cap, const char *a, size_t na, const char *last)
{
    int n = snprintf(out, cap, "%.*s %s", (int)na, a, last);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

static void add_key(NamesIndex *ix, const char *k, int id)
{
    const char *first, *last;
    size_t nf;
    char buf[512];
    if (!*k)
        return;
    put(ix, ix->full, k, strlen(k), id);
    ends(k, &first, &nf, &last);
    if (last == first)
        return;
    put(ix, ix->short_, buf, join2(buf, sizeof buf, first, nf, last), id);
    put(ix, ix->initial, buf, join2(buf, sizeof buf, first, 1, last), id);
}

void names_index_add(NamesIndex *ix, const char *name, int id)
{
    const char *lp = strchr(name, '('), *rp = lp ? strchr(lp, ')') : NULL;
    if (lp && rp) { /* "Soh-Eun (Ryan) Shim": without it, and "Ryan Shim" */
        size_t n = strlen(name);
        char *plain = xmalloc(n + 1), *nick = xmalloc(n + 1);
        snprintf(plain, n + 1, "%.*s%s", (int)(lp - name), name, rp + 1);
        char *kp = names_key(plain);
        const char *last = strrchr(kp, ' ') ? strrchr(kp, ' ') + 1 : kp;
        snprintf(nick, n + 1, "%.*s %s", (int)(rp - lp - 1), lp + 1, last);
        char *kn = names_key(nick);
        add_key(ix, kp, id);
        add_key(ix, kn, id);
        free(kp);
        free(kn);
        free(plain);
        free(nick);
        return;
    }
    char *k = names_key(name);
    add_key(ix, k, id);
    free(k);
}

/* 1 when the given name is initials only: k's first token is one letter
 * long and another follows ("j wayland", "i mensah foss", "r van der goot":
 * a hyphenated or particle surname after initials, in either order). */
static int initials_only(const char *k)
{
    return k[0] && k[1] == ' ' && k[2];
}

static int64_t lookup(const StrMap *m, const char *k, size_t n)
{
    int64_t v;
    if (n == 0 || !strmap_get(m, k, n, &v))
        return -3; /* absent */
    return v;
}

int names_index_candidates(const NamesIndex *ix, const char *author, int *out, int cap)
{
    char *k = names_key(author);
    char buf[512];
    const char *first, *last;
    size_t nf;
    int64_t v = lookup(ix->full, k, strlen(k));
    if (v == -3 && *k && strchr(k, ' ')) {
        ends(k, &first, &nf, &last);
        v = lookup(ix->short_, buf, join2(buf, sizeof buf, first, nf, last));
        if (v == -3 && initials_only(k))
            v = lookup(ix->initial, buf, join2(buf, sizeof buf, first, 1, last));
    }
    free(k);
    if (v == -3)
        return 0;
    if (v >= 0) {
        if (cap > 0)
            out[0] = (int)v;
        return 1;
    }
    const int *l = ix->lists[-v - NAMES_LIST];
    int n = 0;
    for (; l[n] >= 0; n++)
        if (n < cap)
            out[n] = l[n];
    return n;
}

int names_index_match(const NamesIndex *ix, const char *author)
{
    int id;
    return names_index_candidates(ix, author, &id, 1) == 1 ? id : -1;
}
