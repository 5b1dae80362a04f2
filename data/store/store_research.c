#include "data/store/store_research.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/strmap.h"
#include "data/store/sqlrow.h"
#include "data/store/store.h"

struct StorePubs {
    sqlite3 *db;
    sqlite3_stmt *paper, *author;
};

StorePubs *store_pubs_new(Store *st, CpErr *err)
{
    StorePubs *sp = xcalloc(1, sizeof *sp);
    sp->db = store_db(st);
    if (sqlite3_prepare_v2(sp->db,
                           "INSERT INTO papers(year, title, venue, keywords, abstract, bibkey, "
                           "import_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7) "
                           "ON CONFLICT(year, title) DO NOTHING",
                           -1, &sp->paper, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(sp->db,
                           "INSERT INTO paper_authors(paper_id, pos, name) VALUES(?1, ?2, ?3)",
                           -1, &sp->author, NULL) != SQLITE_OK) {
        sqlrow_err(sp->db, err, "papers");
        store_pubs_free(sp);
        return NULL;
    }
    return sp;
}

void store_pubs_free(StorePubs *sp)
{
    if (!sp)
        return;
    sqlite3_finalize(sp->paper);
    sqlite3_finalize(sp->author);
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

int store_pubs_put(StorePubs *sp, int64_t import_id, const PubRec *p, CpErr *err)
{
    sqlite3_stmt *s = sp->paper;
    sqlite3_reset(s);
    sqlite3_bind_int(s, 1, p->year);
    sqlite3_bind_text(s, 2, p->title, -1, SQLITE_TRANSIENT);
    bind_opt(s, 3, p->venue);
    bind_opt(s, 4, p->keywords);
    bind_opt(s, 5, p->abstract);
    bind_opt(s, 6, p->bibkey);
    sqlite3_bind_int64(s, 7, import_id);
    if (sqlite3_step(s) != SQLITE_DONE)
        return sqlrow_err(sp->db, err, "papers");
    if (sqlite3_changes(sp->db) == 0)
        return 0;
    return put_authors(sp, sqlite3_last_insert_rowid(sp->db), p, err) < 0 ? -1 : 1;
}

/* ---- reading ---- */

/* People, one per user (the row with the latest start), and the index of
 * their names and aliases. */
static int load_people(sqlite3 *db, ResearchData *d, NamesIndex *ix, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT user, group_name, role, name, aliases FROM people "
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

static int load_papers(sqlite3 *db, int since, ResearchData *d, int64_t **ids, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0, icap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT id, year, title, keywords, abstract FROM papers "
                           "WHERE year >= ?1 ORDER BY id",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "papers");
    sqlite3_bind_int(s, 1, since);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        d->papers = sqlrow_grow(d->papers, (size_t)d->npapers, &cap, sizeof *d->papers);
        *ids = sqlrow_grow(*ids, (size_t)d->npapers, &icap, sizeof **ids);
        (*ids)[d->npapers] = sqlite3_column_int64(s, 0);
        RsPaper *p = &d->papers[d->npapers++];
        memset(p, 0, sizeof *p);
        p->year = sqlite3_column_int(s, 1);
        p->title = sqlrow_str(s, 2);
        p->text = join_text(s);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "papers");
}

/* Unmatched authors, grouped by name key. */
typedef struct Unm {
    StrMap *idx;
    size_t cap;
    int *last_paper;
} Unm;

static void note_unmatched(ResearchData *d, Unm *u, const char *name, int paper)
{
    char *k = names_key(name);
    int64_t i;
    if (!strmap_get(u->idx, k, strlen(k), &i)) {
        i = d->nunmatched;
        d->unmatched = sqlrow_grow(d->unmatched, (size_t)i, &u->cap, sizeof *d->unmatched);
        u->last_paper = xrealloc(u->last_paper, u->cap * sizeof *u->last_paper);
        d->unmatched[i] = (RsUnmatched){xstrdup(name), 0};
        u->last_paper[i] = -1;
        strmap_put(u->idx, k, strlen(k), i);
        d->nunmatched++;
    }
    if (u->last_paper[i] != paper) {
        d->unmatched[i].papers++;
        u->last_paper[i] = paper;
    }
    free(k);
}

static void add_author(ResearchData *d, Unm *u, const NamesIndex *ix, int pi, const char *name)
{
    RsPaper *p = &d->papers[pi];
    p->person = xrealloc(p->person, (size_t)(p->nauthors + 1) * sizeof *p->person);
    int who = names_index_match(ix, name);
    p->person[p->nauthors++] = who;
    d->slots++;
    if (who >= 0)
        d->matched++;
    else
        note_unmatched(d, u, name, pi);
}

static int cmp_unmatched(const void *a, const void *b)
{
    const RsUnmatched *x = a, *y = b;
    if (x->papers != y->papers)
        return x->papers > y->papers ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int load_authors(sqlite3 *db, ResearchData *d, const int64_t *ids, const NamesIndex *ix,
                        CpErr *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT paper_id, name FROM paper_authors ORDER BY paper_id, pos",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "paper authors");
    Unm u = {strmap_new(), 0, NULL};
    int rc, pi = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(s, 0);
        while (pi < d->npapers && ids[pi] < id)
            pi++;
        if (pi < d->npapers && ids[pi] == id)
            add_author(d, &u, ix, pi, (const char *)sqlite3_column_text(s, 1));
    }
    sqlite3_finalize(s);
    strmap_free(u.idx);
    free(u.last_paper);
    for (int i = 0; i < d->npapers; i++) {
        int any = 0;
        for (int a = 0; a < d->papers[i].nauthors; a++)
            any |= d->papers[i].person[a] >= 0;
        d->papers_matched += any;
    }
    if (d->nunmatched > 1)
        qsort(d->unmatched, (size_t)d->nunmatched, sizeof *d->unmatched, cmp_unmatched);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "paper authors");
}

int store_research_load(Store *st, int since, ResearchData *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(out, 0, sizeof *out);
    NamesIndex *ix = names_index_new();
    int64_t *ids = NULL;
    int rc = load_people(db, out, ix, err);
    if (rc == 0)
        rc = load_papers(db, since, out, &ids, err);
    if (rc == 0)
        rc = load_authors(db, out, ids, ix, err);
    free(ids);
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
    free(d->people);
    free(d->papers);
    free(d->unmatched);
    memset(d, 0, sizeof *d);
}

/* ---- the latest compute profiles ---- */

static int load_profile_names(sqlite3 *db, int64_t run, RsProfiles *p, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT coalesce(n.name, p.generated) FROM profiles p "
                           "LEFT JOIN profile_names n ON n.generated = p.generated "
                           "WHERE p.run_id = ?1 ORDER BY p.idx",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "profiles");
    sqlite3_bind_int64(s, 1, run);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        p->name = sqlrow_grow(p->name, (size_t)p->k, &cap, sizeof *p->name);
        p->name[p->k++] = sqlrow_str(s, 0);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "profiles");
}

static int load_members(sqlite3 *db, int64_t run, RsProfiles *p, CpErr *err)
{
    sqlite3_stmt *s;
    size_t cap = 0;
    if (sqlite3_prepare_v2(db,
                           "SELECT u.name, m.profile, m.gpu_hours FROM profile_members m "
                           "JOIN users u ON u.id = m.user_id WHERE m.run_id = ?1 ORDER BY u.name",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "profile members");
    sqlite3_bind_int64(s, 1, run);
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        p->members = sqlrow_grow(p->members, (size_t)p->nmembers, &cap, sizeof *p->members);
        RsMember *m = &p->members[p->nmembers++];
        m->user = sqlrow_str(s, 0);
        m->profile = sqlite3_column_int(s, 1);
        m->gpu_hours = sqlite3_column_double(s, 2);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_DONE ? 0 : sqlrow_err(db, err, "profile members");
}

int store_research_profiles(Store *st, RsProfiles *out, CpErr *err)
{
    sqlite3 *db = store_db(st);
    memset(out, 0, sizeof *out);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, "SELECT max(id) FROM profile_runs", -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "profile runs");
    int64_t run = -1;
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_type(s, 0) != SQLITE_NULL)
        run = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    if (run < 0)
        return 0;
    out->found = 1;
    if (load_profile_names(db, run, out, err) < 0 || load_members(db, run, out, err) < 0) {
        store_research_profiles_done(out);
        return -1;
    }
    return 0;
}

void store_research_profiles_done(RsProfiles *p)
{
    for (int i = 0; i < p->k; i++)
        free(p->name[i]);
    for (int i = 0; i < p->nmembers; i++)
        free(p->members[i].user);
    free(p->name);
    free(p->members);
    memset(p, 0, sizeof *p);
}

int store_research_stated(Store *st, const char *user, double *gpus, char *date, size_t ndate,
                          char *group, size_t ngroup, CpErr *err)
{
    sqlite3 *db = store_db(st);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db,
                           "SELECT gpus_fulltime, date, group_name FROM stated_needs "
                           "WHERE user = ?1 AND gpus_fulltime IS NOT NULL "
                           "ORDER BY date DESC, id DESC LIMIT 1",
                           -1, &s, NULL) != SQLITE_OK)
        return sqlrow_err(db, err, "stated needs");
    sqlite3_bind_text(s, 1, user, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(s), found = 0;
    if (rc == SQLITE_ROW) {
        *gpus = sqlite3_column_double(s, 0);
        snprintf(date, ndate, "%s", (const char *)sqlite3_column_text(s, 1));
        snprintf(group, ngroup, "%s", (const char *)sqlite3_column_text(s, 2));
        found = 1;
    }
    sqlite3_finalize(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return sqlrow_err(db, err, "stated needs");
    return found;
}
