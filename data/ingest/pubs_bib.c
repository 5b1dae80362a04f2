/* pubs_bib: BibTeX entries into papers, read with btparse. btparse
 * reports syntax errors on stderr in its own words; they are caught in a
 * temporary file while the file is read and turned into one
 * `file:line: entry KEY: reason` line each. Month macros (jan..dec) are
 * predefined as BibTeX's styles define them. The whole file is parsed
 * first, then the entries are written: a `crossref` child takes the year,
 * date, venue and keywords it lacks from its parent wherever the parent
 * stands, and a parent with no author (a proceedings volume) is not a
 * paper. biblatex's `date` stands for a missing `year`, `journaltitle` for
 * `journal`. pubs.c has made sure the text holds no NUL byte (btparse
 * aborts the process on one). */

#include <btparse.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/names.h"
#include "core/strmap.h"
#include "data/ingest/pubs_int.h"
#include "data/ingest/textenc.h"

/* stderr caught into a temporary file while btparse runs. */
typedef struct Catch {
    FILE *tmp;
    int saved;
    long seen;   /* bytes of tmp already read */
} Catch;

static void catch_begin(Catch *k)
{
    k->tmp = tmpfile();
    k->saved = k->tmp ? dup(STDERR_FILENO) : -1;
    k->seen = 0;
}

/* stderr into the file while btparse works, back for our own messages. */
static void catch_on(Catch *k)
{
    fflush(stderr);
    if (k->saved >= 0)
        dup2(fileno(k->tmp), STDERR_FILENO);
}

static void catch_off(Catch *k)
{
    fflush(stderr);
    if (k->saved >= 0)
        dup2(k->saved, STDERR_FILENO);
}

static void catch_end(Catch *k)
{
    catch_off(k);
    if (k->saved >= 0)
        close(k->saved);
    if (k->tmp)
        fclose(k->tmp);
}

/* btparse's first message since the last call ("..., line N, error: X"),
 * as "X", into out. */
static void catch_message(Catch *k, char *out, size_t cap)
{
    snprintf(out, cap, "syntax error");
    if (!k->tmp)
        return;
    fflush(stderr);
    long end = ftell(k->tmp);
    if (end <= k->seen)
        return;
    char buf[512];
    fseek(k->tmp, k->seen, SEEK_SET);
    size_t n = fread(buf, 1, sizeof buf - 1, k->tmp);
    buf[n] = '\0';
    fseek(k->tmp, end, SEEK_SET);
    k->seen = end;
    buf[strcspn(buf, "\n")] = '\0';
    const char *m = strstr(buf, ", line ");
    if (!m || !(m = strstr(m + 7, ", ")))
        return; /* not btparse's own words */
    snprintf(out, cap, "%.200s", m + 2);
    for (char *p = out; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
}

/* One entry's fields, as plain text (owned). */
typedef struct Entry {
    char *year, *title, *author, *venue, *keywords, *abstract, *date, *crossref, *booktitle;
    int year_line, title_line, author_line, venue_line, keywords_line, abstract_line, date_line;
} Entry;

static void entry_done(Entry *e)
{
    free(e->date);
    free(e->crossref);
    free(e->booktitle);
    free(e->year);
    free(e->title);
    free(e->author);
    free(e->venue);
    free(e->keywords);
    free(e->abstract);
}

static void take(char **slot, int *line, AST *field)
{
    if (*slot)
        return;
    *slot = bt_get_text(field);
    if (line)
        *line = field->line;
}

static void read_fields(AST *entry, Entry *e)
{
    char *name;
    for (AST *f = bt_next_field(entry, NULL, &name); f; f = bt_next_field(entry, f, &name)) {
        if (strcasecmp(name, "year") == 0)
            take(&e->year, &e->year_line, f);
        else if (strcasecmp(name, "date") == 0) /* biblatex */
            take(&e->date, &e->date_line, f);
        else if (strcasecmp(name, "title") == 0)
            take(&e->title, &e->title_line, f);
        else if (strcasecmp(name, "author") == 0)
            take(&e->author, &e->author_line, f);
        else if (strcasecmp(name, "booktitle") == 0 || strcasecmp(name, "journal") == 0 ||
                 strcasecmp(name, "journaltitle") == 0 || strcasecmp(name, "school") == 0) {
            if (strcasecmp(name, "booktitle") == 0)
                take(&e->booktitle, NULL, f);
            take(&e->venue, &e->venue_line, f);
        } else if (strcasecmp(name, "keywords") == 0)
            take(&e->keywords, &e->keywords_line, f);
        else if (strcasecmp(name, "abstract") == 0)
            take(&e->abstract, &e->abstract_line, f);
        else if (strcasecmp(name, "crossref") == 0)
            take(&e->crossref, NULL, f);
    }
}

/* A crossref child takes what it lacks from its parent (BibTeX's rule;
 * the parent's title is the child's venue, as biblatex has it): year,
 * date, venue, keywords. Lines stay the child's entry line. */
static void inherit(Entry *e, const Entry *parent, int line)
{
    char **slot[] = {&e->year, &e->date, &e->keywords};
    char *const from[] = {parent->year, parent->date, parent->keywords};
    int *lines[] = {&e->year_line, &e->date_line, &e->keywords_line};
    for (size_t i = 0; i < sizeof slot / sizeof slot[0]; i++)
        if (!*slot[i] && from[i]) {
            *slot[i] = xstrdup(from[i]);
            *lines[i] = line;
        }
    const char *venue = parent->booktitle ? parent->booktitle
                      : parent->venue     ? parent->venue
                                          : parent->title;
    if (!e->venue && venue) {
        e->venue = xstrdup(venue);
        e->venue_line = line;
    }
}

/* biblatex's date (2022, 2022-05, 2022-05-01, 2022-05/2022-06): its year,
 * or -1. */
static int date_year(const char *d)
{
    while (*d == ' ')
        d++;
    char y[5];
    for (int i = 0; i < 4; i++) {
        if (d[i] < '0' || d[i] > '9')
            return -1;
        y[i] = d[i];
    }
    y[4] = '\0';
    const char *rest = d + 4;
    if (*rest && *rest != '-' && *rest != '/' && *rest != ' ')
        return -1;
    return pubs_year(y);
}

/* Plain text of a field (owned; NULL stays NULL). */
static char *plain(const char *s)
{
    return s ? names_text(s) : NULL;
}

/* Every text the entry brings is UTF-8: else the entry is refused naming
 * the first such field, its line and the byte (a Latin-1 file wants --encoding
 * latin1; stored as it is, it made every --json output invalid). 0 when
 * all are, else pubs_reject's result. */
static int check_utf8(PubsCtx *c, AST *entry, const Entry *e, CpErr *err)
{
    const char *key = bt_entry_key(entry);
    const struct {
        const char *name, *text;
        int line;
    } f[] = {{"key", key, entry->line},          {"year", e->year, e->year_line},
             {"title", e->title, e->title_line},  {"author", e->author, e->author_line},
             {"venue", e->venue, e->venue_line},  {"keywords", e->keywords, e->keywords_line},
             {"abstract", e->abstract, e->abstract_line}};
    size_t first = 0, first_off = 0; /* the bad field with the lowest line, 1-based */
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        size_t n = f[i].text ? strlen(f[i].text) : 0;
        size_t off = n ? textenc_utf8_bad(f[i].text, n) : 0;
        if (off < n && (!first || f[i].line < f[first - 1].line))
            first = i + 1, first_off = off;
    }
    if (!first)
        return 0;
    CpErr why;
    textenc_bad_reason(f[first - 1].text, first_off, &why);
    return pubs_reject(c, f[first - 1].line, f[first - 1].name, why.msg, err) < 0 ? -1 : 1;
}

static int put_entry(PubsCtx *c, AST *entry, Entry *e, Catch *k, CpErr *err)
{
    int line = entry->line;
    int bad = check_utf8(c, entry, e, err);
    if (bad != 0)
        return bad < 0 ? -1 : 0;
    if (!e->year && !e->date)
        return pubs_reject(c, line, "year", "missing", err);
    int year = e->year ? pubs_year(e->year) : date_year(e->date);
    if (year < 0) {
        char why[160];
        snprintf(why, sizeof why, "bad %s '%.40s'", e->year ? "year" : "date",
                 e->year ? e->year : e->date);
        return pubs_reject(c, e->year ? e->year_line : e->date_line, e->year ? "year" : "date",
                           why, err);
    }
    char *title = plain(e->title);
    if (!title || !*title) {
        free(title);
        return pubs_reject(c, e->title ? e->title_line : line, "title", "missing", err);
    }
    if (!e->author) {
        free(title);
        return pubs_reject(c, line, "author", "missing", err);
    }
    catch_on(k);
    bt_stringlist *l = bt_split_list(e->author, (char *)(uintptr_t) "and",
                                     (char *)(uintptr_t)c->name, e->author_line,
                                     (char *)(uintptr_t) "author");
    catch_off(k);
    int n = l ? l->num_items : 0;
    char **names = xcalloc((size_t)(n > 0 ? n : 1), sizeof *names);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (l->items[i] && strcasecmp(l->items[i], "others") != 0)
            names[kept++] = names_text(l->items[i]);
    int rc;
    if (kept == 0)
        rc = pubs_reject(c, e->author_line, "author", "no author names", err);
    else {
        char *venue = plain(e->venue), *kw = plain(e->keywords), *ab = plain(e->abstract);
        PubRec p = {year, title, venue, kw, ab, bt_entry_key(entry),
                    (const char *const *)names, kept, NULL};
        rc = pubs_put(c, &p, err);
        free(venue);
        free(kw);
        free(ab);
    }
    for (int i = 0; i < kept; i++)
        free(names[i]);
    free(names);
    if (l)
        bt_free_list(l);
    free(title);
    return rc;
}

static void define_months(const char *file)
{
    static const char *const m[][2] = {
        {"jan", "January"}, {"feb", "February"}, {"mar", "March"},     {"apr", "April"},
        {"may", "May"},     {"jun", "June"},     {"jul", "July"},      {"aug", "August"},
        {"sep", "September"}, {"oct", "October"}, {"nov", "November"}, {"dec", "December"}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        bt_add_macro_text((char *)(uintptr_t)m[i][0], (char *)(uintptr_t)m[i][1],
                          (char *)(uintptr_t)file, 0);
}

/* One parsed entry, kept for the second pass (crossref parents may come
 * after their children). */
typedef struct Parsed {
    AST *ast;
    boolean ok;
    char *why;       /* btparse's message of a bad entry (owned) */
    Entry e;         /* fields of a regular entry */
    int regular, parent; /* a regular entry; a crossref target */
} Parsed;

static int one_entry(PubsCtx *c, Parsed *p, Catch *k, CpErr *err)
{
    char key[128];
    const char *ek = bt_entry_key(p->ast);
    snprintf(key, sizeof key, "entry %s", ek ? ek : "?");
    if (!p->ok) {
        c->rc.rows_read++;
        return pubs_reject(c, p->ast->line, key, p->why ? p->why : "syntax error", err);
    }
    if (!p->regular)
        return 0;
    /* a crossref target with no author (a proceedings volume) is not a paper */
    if (p->parent && !p->e.author)
        return 0;
    c->rc.rows_read++;
    return put_entry(c, p->ast, &p->e, k, err);
}

int pubs_bib_read(FILE *f, PubsCtx *c, CpErr *err)
{
    Catch k;
    bt_initialize();
    bt_set_stringopts(BTE_REGULAR, BTO_FULL);
    define_months(c->name);
    catch_begin(&k);
    Parsed *v = NULL;
    int n = 0, cap = 0;
    char *fname = (char *)(uintptr_t)c->name;
    for (;;) {
        boolean ok;
        catch_on(&k);
        /* btparse forgets the file only when called at EOF; a call that
         * meets EOF inside (junk after the last entry) returns NULL with
         * the file still held, and the next file would be a "usage error"
         * that exits the process; a call after the forgetting is one too */
        int was_eof = feof(f) != 0;
        AST *entry = bt_parse_entry(f, fname, 0, &ok);
        if (!entry && !was_eof) {
            while (fgetc(f) != EOF) /* its lexer saw an end before the file's */
                ;
            entry = bt_parse_entry(f, fname, 0, &ok);
        }
        catch_off(&k);
        if (!entry)
            break;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            v = xrealloc(v, (size_t)cap * sizeof *v);
        }
        Parsed *p = &v[n++];
        memset(p, 0, sizeof *p);
        p->ast = entry;
        p->ok = ok;
        if (!ok) {
            char why[256];
            catch_message(&k, why, sizeof why);
            p->why = xstrdup(why);
        } else if (bt_entry_metatype(entry) == BTE_REGULAR) {
            p->regular = 1;
            read_fields(entry, &p->e);
        }
    }
    /* crossref: children take what they lack from their parents */
    StrMap *keys = strmap_new();
    for (int i = 0; i < n; i++) {
        const char *key = v[i].regular ? bt_entry_key(v[i].ast) : NULL;
        if (key) {
            char *low = xstrdup(key);
            for (char *q = low; *q; q++)
                *q = (char)tolower((unsigned char)*q);
            int64_t old;
            if (!strmap_get(keys, low, strlen(low), &old))
                strmap_put(keys, low, strlen(low), i);
            free(low);
        }
    }
    for (int i = 0; i < n; i++) {
        if (!v[i].regular || !v[i].e.crossref)
            continue;
        char *low = names_text(v[i].e.crossref);
        for (char *q = low; *q; q++)
            *q = (char)tolower((unsigned char)*q);
        int64_t j;
        if (strmap_get(keys, low, strlen(low), &j) && j != i) {
            v[j].parent = 1;
            inherit(&v[i].e, &v[j].e, v[i].ast->line);
        }
        free(low);
    }
    strmap_free(keys);
    int rc = 0;
    for (int i = 0; i < n; i++) {
        if (rc == 0) /* after a strict stop, the rest is only freed */
            rc = one_entry(c, &v[i], &k, err);
        entry_done(&v[i].e);
        free(v[i].why);
        bt_free_ast(v[i].ast);
    }
    free(v);
    catch_end(&k);
    bt_cleanup();
    if (rc == 0 && ferror(f))
        return cp_err_set(err, "%s: read error", c->name);
    return rc;
}
