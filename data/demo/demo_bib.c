/* demo_bib: the demo institute's publication lists as its groups keep
 * them (issue 18): one BibTeX file per group, pubs-<group>.bib, papers
 * from 2019 (or the history's start) to today, authors from the roster
 * (written "Last, First", "First Last" or "F. Last", as real lists mix
 * them) with their professor and some collaborators outside the roster.
 *
 * Each student's papers follow a research line tied to their main job
 * pattern (large-scale pretraining for multi-GPU work, 70B-class models
 * for large-memory work, fine-tuning for single-GPU work, hyperparameter
 * search for bursts, visual analysis for interactive work, statistics for
 * CPU work), in the words of data/terms.txt, with a word of their group's
 * domain. A few single-GPU and interactive students are written on
 * purpose on the pretraining or 70B lines (their research and their jobs
 * disagree); MSc students often have no paper. pubs-truth.csv (not
 * imported) lists each author's line and the planted ones, for tests.
 *
 * Deterministic: PRNG stream 41 of the demo seed. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"

#define BIB_FIRST_YEAR 2019
#define PLANTED_P 0.06   /* share of single-GPU/interactive students planted */
#define PAPERS_PER_YEAR 1.0

typedef struct Line {
    const char *name;
    const char *words[6]; /* dictionary terms of the line */
} Line;

/* Indexed by DemoPattern. */
static const Line lines[DEMO_PAT_COUNT] = {
    [DEMO_PAT_INTERACTIVE] = {"visual analysis", {"visual analytics", "interpretability",
                              "exploratory data analysis", "probing", "visualization",
                              "interactive analysis"}},
    [DEMO_PAT_SINGLE] = {"fine-tuning", {"LoRA fine-tuning", "BERT", "parameter-efficient",
                         "few-shot", "distillation", "quantization"}},
    [DEMO_PAT_MULTI] = {"pretraining", {"pretraining", "transformers", "C4",
                        "distributed training", "multi-node", "scaling laws"}},
    [DEMO_PAT_BIGMEM] = {"70B models", {"70B", "large language models", "mixture of experts",
                         "instruction tuning", "foundation models", "LLMs"}},
    [DEMO_PAT_HPO] = {"hyperparameter search", {"hyperparameter optimization",
                      "neural architecture search", "AutoML", "sweeps", "CIFAR-10",
                      "hyperparameter search"}},
    [DEMO_PAT_CPU] = {"statistics", {"causal inference", "Gaussian processes", "XGBoost",
                      "survival analysis", "statistical", "mixed models"}},
};

/* A word of each domain (demo_domains order). */
static const char *const domain_word[DEMO_NDOMAINS] = {
    "optimization", "computer vision", "multilingual", "genomics", "fluid dynamics",
    "weather forecasting"};

/* Collaborators outside the roster, as BibTeX writes them. */
static const char *const external[] = {
    "M{\\\"u}ller, J{\\\"o}rg", "Zo{\\\"e} Lef{\\`e}vre", "Nowak, {\\L}ukasz",
    "S{\\o}rensen, Mette", "Jos\xc3\xa9 Garc\xc3\xad" "a", "Dvo{\\v{r}}{\\'a}k, Petr",
    "Kristj\xc3\xa1" "nsson, Bj\xc3\xb6" "rn", "A. Okoro", "Rahimi, Leyla", "O'Neill, Siobhan",
};
#define NEXTERNAL ((int)(sizeof external / sizeof external[0]))

static const char *const forms[] = {"Towards", "Revisiting", "Scaling", "On", "Understanding",
                                    "Rethinking"};

typedef struct BibCtx {
    const DemoWorld *w;
    DemoRng r;
    int *line;          /* per person: research line (a DemoPattern), -1: no papers */
    unsigned char *planted;
    int y0, y1;
    int key;            /* running entry number */
} BibCtx;

static int active_year(const DemoPerson *p, int y)
{
    return p->start < demo_date(y + 1, 1, 1) && (p->end == DEMO_NEVER || p->end > demo_date(y, 1, 1));
}

/* Each person's line: their main pattern, or a planted one. */
static void assign_lines(BibCtx *c)
{
    const DemoWorld *w = c->w;
    for (int i = 0; i < w->npeople; i++) {
        const DemoPerson *p = &w->people[i];
        c->line[i] = p->pat;
        if (p->role == DEMO_ROLE_PROFESSOR ||
            (p->role == DEMO_ROLE_MSC && demo_rng_bern(&c->r, 0.5))) {
            c->line[i] = -1;
            continue;
        }
        int cheap = p->pat == DEMO_PAT_SINGLE || p->pat == DEMO_PAT_INTERACTIVE;
        if (cheap && p->role == DEMO_ROLE_PHD && demo_rng_bern(&c->r, PLANTED_P)) {
            c->line[i] = demo_rng_bern(&c->r, 0.5) ? DEMO_PAT_MULTI : DEMO_PAT_BIGMEM;
            c->planted[i] = 1;
        }
    }
}

/* One roster author in one of the three ways lists write names. */
static void put_name(BibCtx *c, DemoOut *o, const DemoPerson *p)
{
    double u = demo_rng_unif(&c->r);
    char buf[64];
    if (u < 0.5)
        snprintf(buf, sizeof buf, "%s, %s", p->last, p->first);
    else if (u < 0.9)
        snprintf(buf, sizeof buf, "%s %s", p->first, p->last);
    else
        snprintf(buf, sizeof buf, "%c. %s", p->first[0], p->last);
    demo_out_str(o, buf);
}

/* Up to two peers of person i's group on the same line, active in y. */
static int pick_peers(BibCtx *c, int i, int y, int *peers)
{
    const DemoWorld *w = c->w;
    int n = 0, cand[64];
    for (int k = 0; k < w->npeople && n < 64; k++)
        if (k != i && w->people[k].group == w->people[i].group && c->line[k] == c->line[i] &&
            active_year(&w->people[k], y))
            cand[n++] = k;
    int m = n == 0 ? 0 : (int)demo_rng_below(&c->r, n < 2 ? n + 1 : 3);
    for (int j = 0; j < m; j++)
        peers[j] = cand[demo_rng_below(&c->r, n)];
    if (m == 2 && peers[0] == peers[1])
        m = 1;
    return m;
}

static void put_authors(BibCtx *c, DemoOut *o, int i, int y)
{
    const DemoWorld *w = c->w;
    int peers[2], np = pick_peers(c, i, y, peers);
    demo_out_str(o, "  author = {");
    put_name(c, o, &w->people[i]);
    for (int j = 0; j < np; j++) {
        demo_out_str(o, " and ");
        put_name(c, o, &w->people[peers[j]]);
    }
    if (demo_rng_bern(&c->r, 0.3)) {
        demo_out_str(o, " and ");
        demo_out_str(o, external[demo_rng_below(&c->r, NEXTERNAL)]);
    }
    demo_out_str(o, " and ");
    put_name(c, o, &w->people[w->groups[w->people[i].group].prof]);
    demo_out_str(o, "},\n");
}

static const char *word(BibCtx *c, const Line *l)
{
    return l->words[demo_rng_below(&c->r, 6)];
}

static void put_entry(BibCtx *c, DemoOut *o, int i, int y)
{
    const DemoPerson *p = &c->w->people[i];
    const Line *l = &lines[c->line[i]];
    const char *dw = domain_word[c->w->groups[p->group].domain];
    char buf[512];
    snprintf(buf, sizeof buf, "@inproceedings{%s%d_%d,\n", p->user, y, ++c->key);
    demo_out_str(o, buf);
    put_authors(c, o, i, y);
    const char *a = word(c, l), *b = word(c, l);
    snprintf(buf, sizeof buf, "  title = {%s %s with %s for {%s}},\n",
             forms[demo_rng_below(&c->r, 6)], a, b, dw);
    demo_out_str(o, buf);
    snprintf(buf, sizeof buf, "  booktitle = {Proceedings of the %d Workshop on %s},\n", y,
             l->name);
    demo_out_str(o, buf);
    snprintf(buf, sizeof buf, "  year = %d,\n  keywords = {%s, %s},\n", y, word(c, l), dw);
    demo_out_str(o, buf);
    snprintf(buf, sizeof buf,
             "  abstract = {We study %s in %s. Our method combines %s and %s.}\n}\n\n",
             word(c, l), dw, word(c, l), word(c, l));
    demo_out_str(o, buf);
}

static void group_body(BibCtx *c, DemoOut *o, int g)
{
    const DemoWorld *w = c->w;
    demo_out_str(o, "% Publications of ");
    demo_out_str(o, w->groups[g].name);
    demo_out_str(o, " (capplan demo)\n\n");
    for (int y = c->y0; y <= c->y1; y++)
        for (int i = 0; i < w->npeople; i++) {
            const DemoPerson *p = &w->people[i];
            if (p->group != g || c->line[i] < 0 || !active_year(p, y))
                continue;
            int n = demo_rng_poisson(&c->r, PAPERS_PER_YEAR);
            for (int k = 0; k < n; k++)
                put_entry(c, o, i, y);
        }
}

static void truth_body(BibCtx *c, DemoOut *o)
{
    demo_out_str(o, "user,group,line,pattern,planted\n");
    for (int i = 0; i < c->w->npeople; i++) {
        const DemoPerson *p = &c->w->people[i];
        if (c->line[i] < 0)
            continue;
        char buf[160];
        snprintf(buf, sizeof buf, "%s,%s,%s,%s,%d\n", p->user, c->w->groups[p->group].name,
                 lines[c->line[i]].name, demo_pattern_names[p->pat], c->planted[i]);
        demo_out_str(o, buf);
    }
}

static int write_file(BibCtx *c, const char *dir, const char *name, int g, DemoFiles *files,
                      CpErr *err)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    DemoOut o;
    if (demo_out_open(&o, path, err) < 0)
        return -1;
    if (g >= 0)
        group_body(c, &o, g);
    else
        truth_body(c, &o);
    if (demo_out_close(&o, err) < 0)
        return -1;
    if (g >= 0)
        demo_files_add(files, "pubs", path, o.bytes);
    else
        files->bytes += o.bytes;
    return 0;
}

int demo_write_bib(const DemoWorld *w, const char *dir, DemoFiles *files, CpErr *err)
{
    BibCtx c;
    memset(&c, 0, sizeof c);
    c.w = w;
    demo_rng_seed(&c.r, w->o->seed, 41);
    int m, d;
    demo_ymd(w->t0, &c.y0, &m, &d);
    demo_ymd(w->today - 1, &c.y1, &m, &d);
    if (c.y0 < BIB_FIRST_YEAR)
        c.y0 = BIB_FIRST_YEAR;
    c.line = xmalloc((size_t)(w->npeople > 0 ? w->npeople : 1) * sizeof *c.line);
    c.planted = xcalloc((size_t)(w->npeople > 0 ? w->npeople : 1), 1);
    assign_lines(&c);
    int rc = 0;
    for (int g = 0; g < w->ngroups && rc == 0; g++) {
        char name[64];
        snprintf(name, sizeof name, "pubs-%s.bib", w->groups[g].name);
        rc = write_file(&c, dir, name, g, files, err);
    }
    if (rc == 0)
        rc = write_file(&c, dir, "pubs-truth.csv", -1, files, err);
    free(c.line);
    free(c.planted);
    return rc;
}
