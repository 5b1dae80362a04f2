#include "core/research_terms.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/strmap.h"

/* One synonym: its folded words, the term it stands for, the next synonym
 * with the same first word. */
typedef struct Syn {
    char *words; /* folded, single spaces */
    int term;
    int next;
} Syn;

struct Terms {
    char **label, **category;
    size_t n, cap;
    Syn *syn;
    size_t nsyn, capsyn;
    StrMap *labels; /* label -> term */
    StrMap *first;  /* first word -> first synonym */
};

Terms *terms_new(void)
{
    Terms *t = xcalloc(1, sizeof *t);
    t->labels = strmap_new();
    t->first = strmap_new();
    return t;
}

void terms_free(Terms *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->label[i]);
        free(t->category[i]);
    }
    for (size_t i = 0; i < t->nsyn; i++)
        free(t->syn[i].words);
    free(t->label);
    free(t->category);
    free(t->syn);
    strmap_free(t->labels);
    strmap_free(t->first);
    free(t);
}

size_t terms_count(const Terms *t)
{
    return t->n;
}

const char *terms_label(const Terms *t, size_t i)
{
    return t->label[i];
}

const char *terms_category(const Terms *t, size_t i)
{
    return t->category[i];
}

/* Drop a final plural s from each word of 4 letters or more, in place. */
static void singular(char *s)
{
    char *o = s;
    for (char *w = s; *w;) {
        char *e = strchr(w, ' ');
        size_t n = e ? (size_t)(e - w) : strlen(w);
        if (n >= 4 && w[n - 1] == 's' && w[n - 2] != 's')
            n--;
        if (o != s)
            *o++ = ' ';
        memmove(o, w, n);
        o += n;
        w = e ? e + 1 : w + strlen(w);
    }
    *o = '\0';
}

static char *fold_words(const char *s)
{
    char *f = names_fold(s);
    singular(f);
    return f;
}

static void add_syn(Terms *t, const char *text, int term)
{
    char *w = fold_words(text);
    if (!*w) {
        free(w);
        return;
    }
    size_t n1 = strcspn(w, " ");
    for (size_t i = 0; i < t->nsyn; i++)
        if (t->syn[i].term == term && strcmp(t->syn[i].words, w) == 0) {
            free(w);
            return;
        }
    if (t->nsyn == t->capsyn) {
        t->capsyn = t->capsyn ? t->capsyn * 2 : 256;
        t->syn = xrealloc(t->syn, t->capsyn * sizeof *t->syn);
    }
    int64_t head = -1;
    if (!strmap_get(t->first, w, n1, &head))
        head = -1;
    t->syn[t->nsyn] = (Syn){w, term, (int)head};
    strmap_put(t->first, w, n1, (int64_t)t->nsyn);
    t->nsyn++;
}

static int term_of(Terms *t, const char *category, const char *label)
{
    int64_t v;
    if (strmap_get(t->labels, label, strlen(label), &v))
        return (int)v;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 128;
        t->label = xrealloc(t->label, t->cap * sizeof *t->label);
        t->category = xrealloc(t->category, t->cap * sizeof *t->category);
    }
    t->label[t->n] = xstrdup(label);
    t->category[t->n] = xstrdup(category);
    strmap_put(t->labels, label, strlen(label), (int64_t)t->n);
    return (int)t->n++;
}

/* s trimmed of spaces, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static int load_line(Terms *t, char *line, const char *name, int lineno, CpErr *err)
{
    char *s = trim(line);
    if (!*s || *s == '#')
        return 0;
    char *b1 = strchr(s, '|'), *b2 = b1 ? strchr(b1 + 1, '|') : NULL;
    if (!b2)
        return cp_err_set(err, "%s:%d: expected 'category | label | synonyms'", name, lineno);
    *b1 = *b2 = '\0';
    char *cat = trim(s), *label = trim(b1 + 1), *syns = b2 + 1;
    if (!*cat || !*label)
        return cp_err_set(err, "%s:%d: %s: empty", name, lineno, *cat ? "label" : "category");
    int term = term_of(t, cat, label);
    add_syn(t, label, term);
    for (char *p = syns, *c; p; p = c ? c + 1 : NULL) {
        c = strchr(p, ',');
        if (c)
            *c = '\0';
        add_syn(t, trim(p), term);
    }
    return 0;
}

int terms_load(Terms *t, const char *text, const char *name, CpErr *err)
{
    int lineno = 0, rc = 0;
    for (const char *p = text; *p && rc == 0;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = xmalloc(n + 1);
        memcpy(line, p, n);
        line[n] = '\0';
        rc = load_line(t, line, name, ++lineno, err);
        free(line);
        p = e ? e + 1 : p + n;
    }
    return rc;
}

void terms_load_builtin(Terms *t)
{
    CpErr err;
    for (int i = 0; research_terms_builtin[i]; i++) {
        char *line = xstrdup(research_terms_builtin[i]);
        int rc = load_line(t, line, "data/terms.txt", i + 1, &err);
        free(line);
        assert(rc == 0); /* the build's own file */
        (void)rc;
    }
}

/* 1 when the words of syn start text at w (both folded, single spaces). */
static int starts_with_words(const char *w, const char *syn)
{
    size_t n = strlen(syn);
    return strncmp(w, syn, n) == 0 && (w[n] == ' ' || w[n] == '\0');
}

int terms_scan(const Terms *t, const char *text, unsigned char *hits)
{
    if (!text || !*text)
        return 0;
    char *f = fold_words(text);
    int found = 0;
    for (char *w = f; *w;) {
        size_t n1 = strcspn(w, " ");
        int64_t i;
        if (strmap_get(t->first, w, n1, &i))
            for (; i >= 0; i = t->syn[i].next)
                if (!hits[t->syn[i].term] && starts_with_words(w, t->syn[i].words)) {
                    hits[t->syn[i].term] = 1;
                    found++;
                }
        w += n1;
        while (*w == ' ')
            w++;
    }
    free(f);
    return found;
}
