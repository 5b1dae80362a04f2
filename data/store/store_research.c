#include "data/store/store_research.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/names.h"
#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"

struct StorePubs {
    sqlite3 *db;
    sqlite3_stmt *find, *paper, *merge, *author, *source;
};

/* Papers of before schema v21 (authors_key '') get their key from their
 * authors; a paper with no author keeps ''. 0, or -1 with err. */
static int rekey_legacy(sqlite3 *db, CpErr *err)
{
    sqlite3_stmt *s, *a, *u;
    if (sqlite3_prepare_v2(db, "SELECT id FROM papers WHERE authors_key = ''", -1, &s, NULL) !=
        SQLITE_OK)
        return sqlrow_err(db, err, "papers");
    if (sqlite3_prepare_v2(db, "SELECT name FROM paper_authors WHERE paper_id = ?1 ORDER BY pos",
                           -1, &a, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "UPDATE OR IGNORE papers SET authors_key = ?2 WHERE id = ?1", -1,
                           &u, NULL) != SQLITE_OK) {
        sqlite3_finalize(s);
        sqlite3_finalize(a);
        return sqlrow_err(db, err, "papers");
    }
    int64_t *ids = NULL; /* all first: no update while the table is read */
    size_t nid = 0, icap = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        ids = sqlrow_grow(ids, nid, &icap, sizeof *ids);
        ids[nid++] = sqlite3_column_int64(s, 0);
    }
    int rc = SQLITE_DONE;
    for (size_t k = 0; k < nid && rc == SQLITE_DONE; k++) {
        int64_t id = ids[k];
        char **names = NULL;
        size_t n = 0, cap = 0;
        sqlite3_reset(a);
        sqlite3_bind_int64(a, 1, id);
        while (sqlite3_step(a) == SQLITE_ROW) {
            names = sqlrow_grow(names, n, &cap, sizeof *names);
            names[n++] = sqlrow_str(a, 0);
        }
        if (n > 0) {
            char *key = store_pubs_authors_key((const char *const *)names, (int)n);
            sqlite3_reset(u);
            sqlite3_bind_int64(u, 1, id);
            sqlite3_bind_text(u, 2, key, -1, SQLITE_TRANSIENT);
            rc = sqlite3_step(u);
            free(key);
        }
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        free(names);
    }
    free(ids);
    sqlite3_finalize(s);
    sqlite3_finalize(a);
    sqlite3_finalize(u);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "papers");
}

StorePubs *store_pubs_new(Store *st, CpErr *err)
{
    if (rekey_legacy(store_db(st), err) < 0)
        return NULL;
    StorePubs *sp = xcalloc(1, sizeof *sp);
    sp->db = store_db(st);
    /* the optional fields of one paper listed twice: the smallest text
     * that is there, whatever the order of the files */
#define PUBS_MIN(c) c " = CASE WHEN " c " IS NULL OR :" c " < " c " THEN coalesce(:" c ", " c ") ELSE " c " END"
    if (sqlite3_prepare_v2(sp->db,
                           "SELECT id FROM papers WHERE year = ?1 AND title = ?2 AND authors_key = ?3",
                           -1, &sp->find, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(sp->db,
                           "INSERT INTO papers(year, title, venue, keywords, abstract, bibkey, "
                           "import_id, authors_key) VALUES(?1, ?2, ?4, ?5, ?6, ?7, ?8, ?3)",
                           -1, &sp->paper, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(sp->db,
                           "UPDATE papers SET " PUBS_MIN("venue") ", " PUBS_MIN("keywords") ", "
                           PUBS_MIN("abstract") ", " PUBS_MIN("bibkey") " WHERE id = ?1",
                           -1, &sp->merge, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(sp->db,
                           "INSERT INTO paper_authors(paper_id, pos, name) VALUES(?1, ?2, ?3)",
                           -1, &sp->author, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(sp->db,
                           "INSERT OR IGNORE INTO paper_sources(paper_id, source) VALUES(?1, ?2)",
                           -1, &sp->source, NULL) != SQLITE_OK) {
        sqlrow_err(sp->db, err, "papers");
        store_pubs_free(sp);
        return NULL;
    }
#undef PUBS_MIN
    return sp;
}

void store_pubs_free(StorePubs *sp)
{
    if (!sp)
        return;
    sqlite3_finalize(sp->find);
    sqlite3_finalize(sp->paper);
    sqlite3_finalize(sp->merge);
    sqlite3_finalize(sp->author);
    sqlite3_finalize(sp->source);
    free(sp);
}

static void bind_opt(sqlite3_stmt *s, int i, const char *v)
{
    if (v && *v)
        sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(s, i);
}

static int put_authors(StorePubs *sp, int64_t id, const PubRec *p, CpErr *err)
{
    for (int i = 0; i < p->nauthors; i++) {
        sqlite3_reset(sp->author);
        sqlite3_bind_int64(sp->author, 1, id);
        sqlite3_bind_int(sp->author, 2, i);
        sqlite3_bind_text(sp->author, 3, p->authors[i], -1, SQLITE_TRANSIENT);
        if (sqlite3_step(sp->author) != SQLITE_DONE)
            return sqlrow_err(sp->db, err, "paper authors");
    }
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *store_pubs_authors_key(const char *const *authors, int n)
{
    char **k = xcalloc((size_t)(n > 0 ? n : 1), sizeof *k);
    size_t len = 1;
    for (int i = 0; i < n; i++) {
        k[i] = names_key(authors[i]);
        len += strlen(k[i]) + 1;
    }
    qsort(k, (size_t)n, sizeof *k, cmp_str);
    char *out = xmalloc(len), *o = out;
    for (int i = 0; i < n; i++) {
        if (i == 0 || strcmp(k[i], k[i - 1]) != 0) {
            if (o != out)
                *o++ = '|';
            size_t m = strlen(k[i]);
            memcpy(o, k[i], m);
            o += m;
        }
    }
    *o = '\0';
    for (int i = 0; i < n; i++)
        free(k[i]);
    free(k);
    return out;
}

/* The file's base name, as paper_sources keeps it. */
static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int put_source(StorePubs *sp, int64_t id, const PubRec *p, CpErr *err)
{
    if (!p->source)
        return 0;
    sqlite3_reset(sp->source);
    sqlite3_bind_int64(sp->source, 1, id);
    sqlite3_bind_text(sp->source, 2, base_name(p->source), -1, SQLITE_TRANSIENT);
    return sqlite3_step(sp->source) == SQLITE_DONE ? 0 : sqlrow_err(sp->db, err, "paper sources");
}

static void bind_paper(sqlite3_stmt *s, const PubRec *p, const char *key, int64_t import_id)
{
    sqlite3_reset(s);
    sqlite3_bind_int(s, 1, p->year);
    sqlite3_bind_text(s, 2, p->title, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, key, -1, SQLITE_TRANSIENT);
    bind_opt(s, 4, p->venue);
    bind_opt(s, 5, p->keywords);
    bind_opt(s, 6, p->abstract);
    bind_opt(s, 7, p->bibkey);
    sqlite3_bind_int64(s, 8, import_id);
}

int store_pubs_put(StorePubs *sp, int64_t import_id, const PubRec *p, CpErr *err)
{
    char *key = store_pubs_authors_key(p->authors, p->nauthors);
    sqlite3_stmt *f = sp->find;
    sqlite3_reset(f);
    sqlite3_bind_int(f, 1, p->year);
    sqlite3_bind_text(f, 2, p->title, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(f, 3, key, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(f);
    int64_t id = rc == SQLITE_ROW ? sqlite3_column_int64(f, 0) : -1;
    sqlite3_reset(f);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        free(key);
        return sqlrow_err(sp->db, err, "papers");
    }
    int added = id < 0;
    if (added) {
        bind_paper(sp->paper, p, key, import_id);
        rc = sqlite3_step(sp->paper);
        id = sqlite3_last_insert_rowid(sp->db);
    } else { /* the same paper again: the optional fields settle on the smallest */
        sqlite3_stmt *m = sp->merge;
        sqlite3_reset(m);
        sqlite3_bind_int64(m, 1, id);
        static const char *const col[] = {":venue", ":keywords", ":abstract", ":bibkey"};
        const char *v[] = {p->venue, p->keywords, p->abstract, p->bibkey};
        for (int i = 0; i < 4; i++)
            bind_opt(m, sqlite3_bind_parameter_index(m, col[i]), v[i]);
        rc = sqlite3_step(m);
    }
    free(key);
    if (rc != SQLITE_DONE)
        return sqlrow_err(sp->db, err, "papers");
    if ((added && put_authors(sp, id, p, err) < 0) || put_source(sp, id, p, err) < 0)
        return -1;
    return added;
}

/* ---- reading ---- */

/* People, one per user (the row with the latest start), and the index of
 * their names and aliases. */
static int load_people(sqlite3 *db, ResearchData *d, NamesIndex *ix, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT user, group_name, role, name, aliases, "
                           "CAST(substr(start_date, 1, 4) AS INTEGER), "
                           "coalesce(CAST(substr(end_date, 1, 4) AS INTEGER), 9999) FROM people "
                           "ORDER BY user, start_date DESC",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "people");
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        const char *user = (const char *)sqlite3_column_text(s, 0);
        if (d->npeople > 0 && strcmp(d->people[d->npeople - 1].user, user) == 0)
            continue;
        d->people = sqlrow_grow(d->people, (size_t)d->npeople, &cap, sizeof *d->people);
        RsPerson *p = &d->people[d->npeople];
        p->user = sqlrow_str(s, 0);
        p->group = sqlrow_str(s, 1);
        p->role = sqlrow_str(s, 2);
        p->name = sqlrow_str(s, 3);
        p->y0 = sqlite3_column_int(s, 5);
        p->y1 = sqlite3_column_int(s, 6);
        if (p->name)
            names_index_add(ix, p->name, d->npeople);
        char *aliases = sqlrow_str(s, 4);
        for (char *a = aliases, *e; a && *a; a = e ? e + 1 : a + strlen(a)) {
            e = strchr(a, ';');
            if (e)
                *e = '\0';
            names_index_add(ix, a, d->npeople);
        }
        free(aliases);
        d->npeople++;
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "people");
}

static char *join_text(sqlite3_stmt *s)
{
    const char *parts[3];
    size_t n = 0;
    for (int i = 0; i < 3; i++) {
        parts[i] = (const char *)sqlite3_column_text(s, 2 + i);
        n += (parts[i] ? strlen(parts[i]) : 0) + 2;
    }
    char *t = xmalloc(n + 1), *o = t;
    for (int i = 0; i < 3; i++)
        if (parts[i]) {
            size_t m = strlen(parts[i]);
            memcpy(o, parts[i], m);
            o += m;
            *o++ = '\n';
        }
    *o = '\0';
    return t;
}

#define RS_CANDS 16  /* same-name people looked at for one author */

/* One author as a stored row of papers writes them. */
typedef struct RawAuthor {
    char *name, *key;
    int ncand;             /* people the name may be */
    int cand[RS_CANDS];
} RawAuthor;

/* One row of papers: a paper as one or more files list it. */
typedef struct RawPaper {
    int64_t id;
    int year;
    char *title, *text;
    RawAuthor *a;
    int na;
    unsigned char *group;  /* per group (Raw.groups): listed by that group's file */
    int comp;              /* the merged paper it belongs to */
} RawPaper;

typedef struct Raw {
    RawPaper *p;
    int n;
    char **groups;         /* the roster's groups, sorted */
    int ngroups;
    int *person_group;     /* per person: index in groups */
} Raw;

static void raw_done(Raw *r)
{
    for (int i = 0; i < r->n; i++) {
        for (int j = 0; j < r->p[i].na; j++) {
            free(r->p[i].a[j].name);
            free(r->p[i].a[j].key);
        }
        free(r->p[i].a);
        free(r->p[i].title);
        free(r->p[i].text);
        free(r->p[i].group);
    }
    free(r->p);
    free(r->groups);
    free(r->person_group);
}

static int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The roster's groups, sorted, and each person's (borrowed strings). */
static void raw_groups(const ResearchData *d, Raw *r)
{
    r->groups = xcalloc((size_t)d->npeople + 1, sizeof *r->groups);
    for (int i = 0; i < d->npeople; i++)
        if (d->people[i].group)
            r->groups[r->ngroups++] = d->people[i].group;
    qsort(r->groups, (size_t)r->ngroups, sizeof *r->groups, cmp_strp);
    int n = 0;
    for (int i = 0; i < r->ngroups; i++)
        if (n == 0 || strcmp(r->groups[i], r->groups[n - 1]) != 0)
            r->groups[n++] = r->groups[i];
    r->ngroups = n;
    r->person_group = xcalloc((size_t)d->npeople + 1, sizeof *r->person_group);
    for (int i = 0; i < d->npeople; i++) {
        r->person_group[i] = -1;
        if (!d->people[i].group)
            continue;
        char **g = bsearch(&d->people[i].group, r->groups, (size_t)r->ngroups, sizeof *r->groups,
                           cmp_strp);
        r->person_group[i] = g ? (int)(g - r->groups) : -1;
    }
}

/* The group a file lists papers of: its base name less the extension and
 * a leading "pubs-" ("pubs-chen-lab.bib", "mainlp.bib"), when the roster
 * has that group (case aside); else -1. */
static int source_group(const Raw *r, const char *source)
{
    const char *b = strrchr(source, '/');
    b = b ? b + 1 : source;
    if (strncasecmp(b, "pubs-", 5) == 0)
        b += 5;
    const char *dot = strrchr(b, '.');
    size_t n = dot ? (size_t)(dot - b) : strlen(b);
    for (int i = 0; i < r->ngroups; i++)
        if (strlen(r->groups[i]) == n && strncasecmp(r->groups[i], b, n) == 0)
            return i;
    return -1;
}

/* Rows of papers of year >= since with their authors and sources, in the
 * order of their content (year, title, authors), not of their import. */
#define RAW_ORDER " ORDER BY p.year, p.title, p.authors_key"
static int load_raw(sqlite3 *db, int since, const NamesIndex *ix, Raw *r, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT p.id, p.year, p.title, p.keywords, p.abstract FROM papers p "
                           "WHERE p.year >= ?1" RAW_ORDER,
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "papers");
    sqlite3_bind_int(s, 1, since);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        r->p = sqlrow_grow(r->p, (size_t)r->n, &cap, sizeof *r->p);
        RawPaper *p = &r->p[r->n++];
        memset(p, 0, sizeof *p);
        p->id = sqlite3_column_int64(s, 0);
        p->year = sqlite3_column_int(s, 1);
        p->title = sqlrow_str(s, 2);
        p->text = join_text(s);
        p->group = xcalloc((size_t)r->ngroups + 1, 1);
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_DONE)
        return sqlrow_err(db, err, "papers");
    /* authors, then sources, in the same order of papers */
    static const char *const q[2] = {
        "SELECT p.id, a.name FROM paper_authors a JOIN papers p ON p.id = a.paper_id "
        "WHERE p.year >= ?1" RAW_ORDER ", a.pos",
        "SELECT p.id, s.source FROM paper_sources s JOIN papers p ON p.id = s.paper_id "
        "WHERE p.year >= ?1" RAW_ORDER};
    for (int k = 0; k < 2; k++) {
        if (sqlite3_prepare_v2(db, q[k], -1, &s, NULL) != SQLITE_OK)
            return sqlrow_err(db, err, k ? "paper sources" : "paper authors");
        sqlite3_bind_int(s, 1, since);
        int pi = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            int64_t id = sqlite3_column_int64(s, 0);
            while (pi < r->n && r->p[pi].id != id)
                pi++;
            if (pi == r->n)
                break; /* not in the same order: cannot happen */
            RawPaper *p = &r->p[pi];
            const char *v = (const char *)sqlite3_column_text(s, 1);
            if (k == 1) {
                int g = source_group(r, v);
                if (g >= 0)
                    p->group[g] = 1;
                continue;
            }
            p->a = xrealloc(p->a, (size_t)(p->na + 1) * sizeof *p->a);
            RawAuthor *a = &p->a[p->na++];
            a->name = xstrdup(v);
            a->key = names_key(v);
            a->ncand = names_index_candidates(ix, v, a->cand, RS_CANDS);
            if (a->ncand > RS_CANDS)
                a->ncand = RS_CANDS;
        }
        sqlite3_finalize(s);
        if (rc != SQLITE_DONE && rc != SQLITE_ROW)
            return sqlrow_err(db, err, k ? "paper sources" : "paper authors");
    }
    return 0;
}

/* Rows x and y of one year and title are one paper: they share an author
 * (the same name key, or the one person both names can only be). */
static int share_author(const RawPaper *x, const RawPaper *y)
{
    for (int i = 0; i < x->na; i++)
        for (int j = 0; j < y->na; j++) {
            const RawAuthor *a = &x->a[i], *b = &y->a[j];
            if (strcmp(a->key, b->key) == 0 ||
                (a->ncand == 1 && b->ncand == 1 && a->cand[0] == b->cand[0]))
                return 1;
        }
    return 0;
}

static int uf_find(int *up, int i)
{
    while (up[i] != i)
        i = up[i] = up[up[i]];
    return i;
}

/* Merge rows of one year and title that share an author, transitively;
 * comp numbers the merged papers in row order. Returns their count. */
static int raw_merge(Raw *r)
{
    int *up = xcalloc((size_t)r->n + 1, sizeof *up);
    for (int i = 0; i < r->n; i++)
        up[i] = i;
    for (int i = 0; i < r->n;) {
        int j = i + 1;
        while (j < r->n && r->p[j].year == r->p[i].year && strcmp(r->p[j].title, r->p[i].title) == 0)
            j++;
        for (int x = i; x < j; x++)
            for (int y = x + 1; y < j; y++)
                if (share_author(&r->p[x], &r->p[y])) {
                    int a = uf_find(up, x), b = uf_find(up, y);
                    up[a > b ? a : b] = a < b ? a : b;
                }
        i = j;
    }
    int n = 0;
    for (int i = 0; i < r->n; i++) {
        int root = uf_find(up, i);
        r->p[i].comp = root == i ? n++ : r->p[root].comp;
    }
    free(up);
    return n;
}

/* Same-name people: the names seen and their papers, as for unmatched. */
typedef struct Tally {
    StrMap *idx;
    size_t cap;
    int *last_paper;
} Tally;

static void tally(RsUnmatched **list, int *n, Tally *u, const char *name, const char *key,
                  int paper)
{
    int64_t i;
    if (!strmap_get(u->idx, key, strlen(key), &i)) {
        i = *n;
        *list = sqlrow_grow(*list, (size_t)i, &u->cap, sizeof **list);
        u->last_paper = xrealloc(u->last_paper, u->cap * sizeof *u->last_paper);
        (*list)[i] = (RsUnmatched){xstrdup(name), 0};
        u->last_paper[i] = -1;
        strmap_put(u->idx, key, strlen(key), i);
        (*n)++;
    }
    if (u->last_paper[i] != paper) {
        (*list)[i].papers++;
        u->last_paper[i] = paper;
    }
}

/* Of the candidates c (n), those whose group has mark set: their count,
 * the first into *one. */
static int by_group(const Raw *r, const int *c, int n, const unsigned char *mark, int *one)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int g = r->person_group[c[i]];
        if (g >= 0 && mark[g]) {
            if (m++ == 0)
                *one = c[i];
        }
    }
    return m;
}

/* Of a's candidates (those of the groups marked in group, when any is),
 * the one on the roster in year or the year before (a paper may come out
 * after its author left), or -1 when not exactly one. */
static int by_year(const ResearchData *d, const Raw *r, const RawAuthor *a,
                   const unsigned char *group, int year)
{
    int one = -1, n = 0, ingroup = by_group(r, a->cand, a->ncand, group, &one) > 0;
    one = -1;
    for (int i = 0; i < a->ncand; i++) {
        const RsPerson *q = &d->people[a->cand[i]];
        int g = r->person_group[a->cand[i]];
        if (ingroup && (g < 0 || !group[g]))
            continue;
        if (q->y0 <= year && year <= q->y1 + 1 && n++ == 0)
            one = a->cand[i];
    }
    return n == 1 ? one : -1;
}

/* One merged paper's authors: each author once (by name key, then by
 * person), matched: one candidate, else the one of the group whose file
 * lists the paper, else the one of a matched co-author's group; what
 * stays several people is ambiguous. */
typedef struct Merged {
    RawAuthor **a;          /* the authors of the rows, rows in order */
    int na;
    unsigned char *group;   /* groups whose file lists it */
    unsigned char *cogroup; /* groups of the matched co-authors */
} Merged;

static void match_paper(ResearchData *d, const Raw *r, Merged *m, int pi, Tally *tu, Tally *ta)
{
    RsPaper *p = &d->papers[pi];
    int *who = xcalloc((size_t)m->na + 1, sizeof *who);
    memset(m->cogroup, 0, (size_t)r->ngroups + 1);
    for (int i = 0; i < m->na; i++) {
        const RawAuthor *a = m->a[i];
        who[i] = a->ncand == 1 ? a->cand[0] : -1;
        int one = -1;
        if (a->ncand > 1 && by_group(r, a->cand, a->ncand, m->group, &one) == 1)
            who[i] = one;
        if (who[i] >= 0 && r->person_group[who[i]] >= 0)
            m->cogroup[r->person_group[who[i]]] = 1;
    }
    for (int i = 0; i < m->na; i++) {
        const RawAuthor *a = m->a[i];
        int one = -1;
        if (who[i] < 0 && a->ncand > 1 && by_group(r, a->cand, a->ncand, m->cogroup, &one) == 1)
            who[i] = one;
        if (who[i] < 0 && a->ncand > 1)
            who[i] = by_year(d, r, a, m->group, p->year);
    }
    p->person = xcalloc((size_t)m->na + 1, sizeof *p->person);
    for (int i = 0; i < m->na; i++) {
        int dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = strcmp(m->a[j]->key, m->a[i]->key) == 0 || (who[i] >= 0 && who[j] == who[i]);
        if (dup)
            continue;
        p->person[p->nauthors++] = who[i];
        d->slots++;
        if (who[i] >= 0)
            d->matched++;
        else if (m->a[i]->ncand > 1) {
            d->slots_ambiguous++;
            tally(&d->ambiguous, &d->nambiguous, ta, m->a[i]->name, m->a[i]->key, pi);
        } else
            tally(&d->unmatched, &d->nunmatched, tu, m->a[i]->name, m->a[i]->key, pi);
    }
    free(who);
}

static int cmp_unmatched(const void *a, const void *b)
{
    const RsUnmatched *x = a, *y = b;
    if (x->papers != y->papers)
        return x->papers > y->papers ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The merged papers into d: each from its rows (first row's title and
 * text), authors matched. */
static void build_papers(ResearchData *d, Raw *r, int n)
{
    d->papers = xcalloc((size_t)n + 1, sizeof *d->papers);
    d->npapers = n;
    Tally tu = {strmap_new(), 0, NULL}, ta = {strmap_new(), 0, NULL};
    Merged m = {NULL, 0, xcalloc((size_t)r->ngroups + 1, 1), xcalloc((size_t)r->ngroups + 1, 1)};
    int *first = xcalloc((size_t)n + 1, sizeof *first);
    for (int c = 0; c < n; c++)
        first[c] = -1;
    for (int i = 0; i < r->n; i++)
        if (first[r->p[i].comp] < 0)
            first[r->p[i].comp] = i;
    for (int c = 0; c < n; c++) {
        const RawPaper *f = &r->p[first[c]];
        RsPaper *p = &d->papers[c];
        p->year = f->year;
        p->title = xstrdup(f->title);
        p->text = xstrdup(f->text);
        m.na = 0;
        memset(m.group, 0, (size_t)r->ngroups + 1);
        for (int i = first[c]; i < r->n && r->p[i].year == f->year &&
                               strcmp(r->p[i].title, f->title) == 0; i++) {
            if (r->p[i].comp != c)
                continue;
            m.a = xrealloc(m.a, (size_t)(m.na + r->p[i].na + 1) * sizeof *m.a);
            for (int j = 0; j < r->p[i].na; j++)
                m.a[m.na++] = &r->p[i].a[j];
            for (int g = 0; g < r->ngroups; g++)
                m.group[g] |= r->p[i].group[g];
        }
        match_paper(d, r, &m, c, &tu, &ta);
    }
    free(first);
    free(m.a);
    free(m.group);
    free(m.cogroup);
    strmap_free(tu.idx);
    strmap_free(ta.idx);
    free(tu.last_paper);
    free(ta.last_paper);
    for (int i = 0; i < d->npapers; i++) {
        int any = 0;
        for (int a = 0; a < d->papers[i].nauthors; a++)
            any |= d->papers[i].person[a] >= 0;
        d->papers_matched += any;
    }
    if (d->nunmatched > 1)
        qsort(d->unmatched, (size_t)d->nunmatched, sizeof *d->unmatched, cmp_unmatched);
    if (d->nambiguous > 1)
        qsort(d->ambiguous, (size_t)d->nambiguous, sizeof *d->ambiguous, cmp_unmatched);
}

int store_research_load(Store *st, int since, ResearchData *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(out, 0, sizeof *out);
    NamesIndex *ix = names_index_new();
    Raw r;
    memset(&r, 0, sizeof r);
    int rc = load_people(db, out, ix, err);
    if (rc == 0) {
        raw_groups(out, &r);
        rc = load_raw(db, since, ix, &r, err);
    }
    if (rc == 0) {
        int n = raw_merge(&r);
        out->rows_merged = r.n - n;
        build_papers(out, &r, n);
    }
    raw_done(&r);
    names_index_free(ix);
    if (rc < 0)
        store_research_done(out);
    return rc;
}

void store_research_done(ResearchData *d)
{
    for (int i = 0; i < d->npeople; i++) {
        free(d->people[i].user);
        free(d->people[i].group);
        free(d->people[i].role);
        free(d->people[i].name);
    }
    for (int i = 0; i < d->npapers; i++) {
        free(d->papers[i].title);
        free(d->papers[i].text);
        free(d->papers[i].person);
    }
    for (int i = 0; i < d->nunmatched; i++)
        free(d->unmatched[i].name);
    for (int i = 0; i < d->nambiguous; i++)
        free(d->ambiguous[i].name);
    free(d->people);
    free(d->papers);
    free(d->unmatched);
    free(d->ambiguous);
    memset(d, 0, sizeof *d);
}
