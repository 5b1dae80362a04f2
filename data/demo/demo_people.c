/* demo_people: the institute. Three clusters whose GPU inventory changes
 * over the five years (an upgrade, a new cluster, an allocation on a
 * national system that is later cut), 25 research groups in 6 domains, each
 * led by a professor, and a dated roster: PhD and MSc students who arrive
 * in September (some in January) and graduate, postdocs on two-to-three
 * year contracts, research staff. Groups grow, shrink (a professor who
 * stops taking students) and start (new professors hired during the
 * history). Each member gets the traits their jobs are drawn from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/demo/demo_model.h"

const char *const demo_pattern_names[DEMO_PAT_COUNT] = {
    "interactive", "single-gpu", "multi-gpu", "large-memory", "hpo-burst", "cpu-only"};
/* Roster roles; "professor" is the word import roster recognises as the
 * head of a group. Students are "phd-student" and "msc-student". */
const char *const demo_role_names[DEMO_ROLE_COUNT] = {"professor", "postdoc", "staff",
                                                      "phd-student", "msc-student"};
const char *const demo_part_names[DEMO_PART_COUNT] = {"preempt", "gpu", "interactive"};

/* Primary pattern weights per domain, in DemoPattern order: interactive,
 * single, multi, large-memory, hpo, cpu. Invented to give each domain a
 * recognisable mix (language groups train large models, life sciences run
 * CPU pipelines on GPU nodes, ML methods groups sweep hyper-parameters);
 * pubs_per_head: papers per researcher-year, higher in the conference-driven
 * fields (ML venues publish more, shorter papers). */
const DemoDomain demo_domains[DEMO_NDOMAINS] = {
    {"Machine Learning", {0.08, 0.24, 0.20, 0.10, 0.33, 0.05}, 1, 0.5},
    {"Computer Vision", {0.08, 0.34, 0.30, 0.06, 0.17, 0.05}, 1, 0.45},
    {"Language Technology", {0.08, 0.20, 0.20, 0.34, 0.13, 0.05}, 1, 0.45},
    {"Life Sciences", {0.24, 0.25, 0.05, 0.05, 0.05, 0.36}, 0, 0.3},
    {"Physical Sciences", {0.14, 0.40, 0.15, 0.04, 0.06, 0.21}, 0, 0.35},
    {"Earth and Climate", {0.18, 0.24, 0.30, 0.05, 0.06, 0.17}, 0, 0.3},
};

/* Clusters: atlas is the institute's own (72 V100 16 GB since two years
 * before the history; in month 33 it is upgraded: 32 V100 retired, 64
 * A100 80 GB added), borealis a smaller cluster (24 A40 48 GB, expanded
 * with 16 L40S in month 52), cirrus an allocation on a national centre:
 * 16 H100 from month 35, cut to 8 in month 50. The sizes are set so that
 * demand, growing with the groups, fills the clusters before the upgrade
 * (and queues the > 16 GB work on the few 48 GB GPUs), eases after it and
 * grows back; the cut makes the national queue wait. Months count from
 * the first month of the history. Memory, relative training speed (V100 =
 * 1, rough ratios of vendor mixed-precision training throughput) and board
 * power (TDP) are the public data-sheet figures of each model. The
 * national centre exports sacct --json (its last three calendar months
 * are written as JSON) without GPU memory, which its own monitor reports
 * per job (gpu-metrics.csv); atlas only recorded gres/gpumem from month 8
 * on (enabled late), so its first months have GPU memory unknown. */
typedef struct PoolSpec {
    int cluster;
    const char *model;
    double mem, speed, tdp;
    int node_gpus;
    const char *node;
    int nsteps;
    int at[DEMO_MAX_STEPS];
    int gpus[DEMO_MAX_STEPS];
} PoolSpec;

static const PoolSpec pool_specs[DEMO_NPOOLS] = {
    {0, "v100", 16, 1.0, 300, 8, "atlas-v", 2, {-24, 33}, {72, 40}},
    {0, "a100", 80, 2.5, 400, 8, "atlas-a", 1, {33}, {64}},
    {1, "a40", 48, 1.4, 300, 4, "bor-a", 1, {-12}, {24}},
    {1, "l40s", 48, 2.2, 350, 4, "bor-l", 1, {52}, {16}},
    {2, "h100", 80, 5.0, 700, 4, "cir-h", 2, {35, 50}, {16, 8}},
};

typedef struct ClusterSpec {
    const char *name;
    int64_t id_base;
    int gpumem_month; /* -1: from the start; NO_GPUMEM: never */
    int has_interactive;
} ClusterSpec;

#define NO_GPUMEM 9999

static const ClusterSpec cluster_specs[DEMO_NCLUSTERS] = {
    {"atlas", 3100001, 8, 1},
    {"borealis", 120001, -1, 1},
    {"cirrus", 41000001, NO_GPUMEM, 0},
};

/* The 25 groups: domain, founding month (0: before the history), intake
 * growth per year, month from which no new students join (-1: never),
 * home cluster, national allocation, idle holder. Three groups start, two
 * shrink, several grow quickly (the ML and language groups), three hold
 * GPUs idle. */
typedef struct GroupSpec {
    int domain, start_month;
    double growth;
    int stop_month, home, cirrus, idle;
} GroupSpec;

static const GroupSpec group_specs[] = {
    {0, 0, 0.30, -1, 0, 1, 0}, {0, 0, 0.10, -1, 0, 0, 0}, {0, 0, 0.15, -1, 1, 0, 0},
    {0, 20, 0.35, -1, 0, 1, 0}, {0, 0, 0.05, -1, 1, 0, 1},
    {1, 0, 0.20, -1, 0, 1, 0}, {1, 0, 0.05, -1, 1, 0, 0}, {1, 0, 0.00, 24, 0, 0, 0},
    {1, 0, 0.10, -1, 1, 0, 1},
    {2, 0, 0.35, -1, 0, 1, 0}, {2, 0, 0.15, -1, 0, 1, 0}, {2, 34, 0.30, -1, 1, 0, 0},
    {2, 0, 0.05, -1, 1, 0, 0},
    {3, 0, 0.10, -1, 1, 0, 0}, {3, 0, 0.05, -1, 1, 0, 1}, {3, 46, 0.40, -1, 1, 0, 0},
    {3, 0, 0.00, 20, 0, 0, 0},
    {4, 0, 0.05, -1, 0, 0, 0}, {4, 0, 0.10, -1, 1, 0, 0}, {4, 0, 0.00, -1, 0, 0, 0},
    {4, 0, 0.05, -1, 1, 0, 0},
    {5, 0, 0.10, -1, 0, 0, 0}, {5, 0, 0.15, -1, 1, 0, 0}, {5, 0, 0.05, -1, 0, 0, 0},
    {5, 0, 0.00, -1, 1, 0, 0},
};
#define NGROUPS ((int)(sizeof group_specs / sizeof group_specs[0]))

static const char *const first_names[] = {
    "Aisha", "Alejandro", "Amara", "Anders", "Ana", "Arjun", "Astrid", "Ben", "Bilal",
    "Camille", "Carlos", "Chen", "Chiara", "Chloe", "Daniel", "Dmitri", "Elena", "Emeka",
    "Emma", "Erik", "Fatima", "Felix", "Freya", "Gabriel", "Hana", "Hamza", "Ines", "Ingrid",
    "Isaac", "Jamal", "Javier", "Jin", "Jonas", "Julia", "Kai", "Karim", "Keiko", "Lars",
    "Laura", "Leila", "Leon", "Lucas", "Lucia", "Maja", "Marco", "Maria", "Mateo", "Mei",
    "Mohammed", "Nadia", "Naomi", "Nikolai", "Noah", "Nora", "Oliver", "Olga", "Omar",
    "Paula", "Pedro", "Priya", "Rafael", "Ravi", "Rosa", "Sami", "Sara", "Sofia", "Sven",
    "Tariq", "Theo", "Tomas", "Uma", "Valentina", "Victor", "Wei", "Yara", "Yusuf", "Zara",
    "Zhang", "Adrian", "Beatriz", "Clara", "Diego", "Elif", "Farah", "Goran", "Hugo", "Ivan",
    "Jana", "Kofi", "Lina", "Mira", "Nils", "Oskar", "Pia", "Quentin", "Rui", "Selin",
};
#define NFIRST ((int)(sizeof first_names / sizeof first_names[0]))

static const char *const last_names[] = {
    "Moreau", "Tanaka", "Okafor", "Lindqvist", "Haddad", "Novak", "Ferreira", "Kowalski",
    "Nguyen", "Rossi", "Schmidt", "Petrov", "Mensah", "Larsen", "Dubois", "Costa",
    "Yamamoto", "Brennan", "Alvarez", "Chen", "Ivanova", "Osei", "Fischer", "Kapoor", "Silva",
    "Andersen", "Bauer", "Castillo", "Dimitrov", "Eriksson", "Fontaine", "Garcia", "Hoffmann",
    "Ito", "Jansen", "Kim", "Laurent", "Mehta", "Nakamura", "Olsen", "Park", "Quinn", "Reyes",
    "Sato", "Torres", "Urban", "Vasquez", "Wagner", "Xu", "Young", "Zhou", "Abbasi", "Bianchi",
    "Carvalho", "Duarte", "Edwards", "Farouk", "Grant", "Horvath", "Iqbal", "Jovanovic",
    "Keller", "Lopez", "Morales", "Nielsen", "Ortiz", "Popescu", "Ramos", "Santos", "Tran",
    "Ueda", "Vogel", "Weber", "Yilmaz", "Zanetti", "Adeyemi", "Becker", "Conti", "Das",
    "Engel", "Fujita", "Gomez", "Hansen", "Ibrahim", "Jung", "Khan", "Li", "Martin", "Ng",
    "Okonkwo", "Pereira", "Ricci", "Singh", "Takahashi", "Umar", "Varga", "Wang", "Yoon",
    "Zielinski", "Ahmed", "Berg", "Cruz", "Diaz", "Evans", "Fernandes", "Gupta", "Huang",
};
#define NLAST ((int)(sizeof last_names / sizeof last_names[0]))

/* Job names per pattern, and where each pattern's names start. */
const char *const demo_job_names[] = {
    /* interactive */ "sys/dashboard/sys/jupyter", "jupyter", "interactive", "bash", "vscode",
    /* single */ "train", "train_resnet50", "finetune", "run.sh", "eval", "train_unet",
    "fit_model",
    /* multi */ "ddp_train", "pretrain_vit_l", "train_8gpu", "torchrun", "deepspeed_run",
    /* large-memory */ "llama_ft", "sft_13b", "protein_lm", "long_context", "lora_70b",
    /* hpo */ "optuna", "sweep", "wandb-agent", "hpo_lr", "ray_tune",
    /* cpu */ "align", "preprocess", "snakemake", "gromacs_prep", "blast", "regrid",
    /* rare names real logs hold: the delimiter (JobName is the last field),
     * UTF-8, a quote */
    "sweep|lr=3e-4", "entraînement_modèle", "run \"v2\"",
};
const int demo_njob_names = (int)(sizeof demo_job_names / sizeof demo_job_names[0]);
const int demo_name_start[DEMO_PAT_COUNT + 1] = {0, 5, 12, 17, 22, 27, 33};

/* ---- world ---- */

static int64_t month_start(int y, int m, int add)
{
    return demo_date(y, m + add, 1);
}

static void init_months(DemoWorld *w)
{
    int y, m, d;
    demo_ymd(w->today, &y, &m, &d);
    if (m == 2 && d == 29)
        d = 28;
    w->t0 = demo_date(y - DEMO_YEARS, m, d);
    int y0, m0, d0;
    demo_ymd(w->t0, &y0, &m0, &d0);
    int k = 0;
    w->month[0] = month_start(y0, m0, 0);
    while (w->month[k] < w->today) {
        k++;
        w->month[k] = month_start(y0, m0, k);
    }
    w->nmonths = k;
}

void demo_world_init(DemoWorld *w, const DemoOpts *o)
{
    memset(w, 0, sizeof *w);
    w->o = o;
    w->today = o->today;
    init_months(w);
    double jobs = (double)o->jobs;
    w->target_full = jobs > DEMO_DEFAULT_JOBS ? jobs : DEMO_DEFAULT_JOBS;
    w->cap_mult = w->target_full / DEMO_DEFAULT_JOBS;
    w->keep_p = jobs / w->target_full;
}

void demo_world_done(DemoWorld *w)
{
    free(w->groups);
    free(w->people);
    free(w->jobs);
    free(w->att);
    free(w->pubs);
    free(w->notes);
    free(w->needs);
    free(w->order);
    memset(w, 0, sizeof *w);
}

int demo_month_of(const DemoWorld *w, int64_t t)
{
    int lo = 0, hi = w->nmonths - 1;
    if (t < w->month[0])
        return 0;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (w->month[mid] <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Start of month offset k of the history (may be negative). */
static int64_t month_at(const DemoWorld *w, int k)
{
    int y, m, d;
    demo_ymd(w->month[0], &y, &m, &d);
    return month_start(y, m, k);
}

int demo_pool_gpus(const DemoWorld *w, int p, int64_t t)
{
    const DemoPool *pl = &w->pools[p];
    int g = 0;
    for (int k = 0; k < pl->nsteps && pl->from[k] <= t; k++)
        g = pl->gpus[k];
    return g;
}

/* ---- clusters, pools, events ---- */

static int scaled_gpus(const DemoWorld *w, int base, int node)
{
    if (w->cap_mult <= 1.0)
        return base;
    int nodes = (int)lround(base * w->cap_mult / node);
    return (nodes < 1 ? 1 : nodes) * node;
}

static int file_gpus(const DemoWorld *w, int gpus)
{
    if (gpus == 0 || w->keep_p >= 1.0)
        return gpus;
    return (int)ceil(gpus * w->keep_p); /* at least 1, and a cut stays a cut */
}

static void make_pools(DemoWorld *w)
{
    for (int c = 0; c < DEMO_NCLUSTERS; c++) {
        const ClusterSpec *cs = &cluster_specs[c];
        DemoCluster *cl = &w->clusters[c];
        cl->name = cs->name;
        cl->id_base = cs->id_base;
        cl->has_interactive = cs->has_interactive;
        cl->gpumem_from = cs->gpumem_month < 0             ? INT64_MIN
                          : cs->gpumem_month == NO_GPUMEM ? DEMO_NEVER
                                                          : month_at(w, cs->gpumem_month);
        cl->json_from = c == 2 ? w->month[w->nmonths - 3] : DEMO_NEVER;
    }
    for (int p = 0; p < DEMO_NPOOLS; p++) {
        const PoolSpec *s = &pool_specs[p];
        DemoPool *pl = &w->pools[p];
        pl->cluster = s->cluster;
        pl->model = s->model;
        pl->mem_gib = s->mem;
        pl->speed = s->speed;
        pl->tdp_w = s->tdp;
        pl->node_gpus = s->node_gpus;
        pl->node_prefix = s->node;
        pl->nsteps = s->nsteps;
        for (int k = 0; k < s->nsteps; k++) {
            pl->from[k] = month_at(w, s->at[k]);
            pl->gpus[k] = scaled_gpus(w, s->gpus[k], s->node_gpus);
            pl->gpus_file[k] = file_gpus(w, pl->gpus[k]);
        }
    }
}

static void add_event(DemoWorld *w, int64_t date, int cluster, const char *label)
{
    DemoEvent *e = &w->events[w->nevents++];
    e->date = date;
    e->cluster = cluster;
    snprintf(e->label, sizeof e->label, "%s", label);
}

/* The dated events, worded with the GPU counts of inventory.csv. */
static void make_events(DemoWorld *w)
{
    const DemoPool *v = &w->pools[0], *a = &w->pools[1], *a40 = &w->pools[2];
    const DemoPool *l40 = &w->pools[3], *h = &w->pools[4];
    char s[112];
    snprintf(s, sizeof s, "borealis commissioned: %d A40 48GB", a40->gpus_file[0]);
    add_event(w, a40->from[0], 1, s);
    snprintf(s, sizeof s, "atlas upgrade: %d A100 80GB added, %d V100 16GB retired",
             a->gpus_file[0], v->gpus_file[0] - v->gpus_file[1]);
    add_event(w, a->from[0], 0, s);
    snprintf(s, sizeof s, "allocation on national cluster cirrus starts: %d H100 80GB",
             h->gpus_file[0]);
    add_event(w, h->from[0], 2, s);
    snprintf(s, sizeof s, "cirrus allocation change: %d to %d H100", h->gpus_file[0],
             h->gpus_file[1]);
    add_event(w, h->from[1], 2, s);
    snprintf(s, sizeof s, "borealis expansion: %d L40S 48GB", l40->gpus_file[0]);
    add_event(w, l40->from[0], 1, s);
}

/* ---- people ---- */

static void lower_letters(char *dst, size_t cap, const char *src)
{
    size_t n = 0;
    for (; *src && n + 1 < cap; src++)
        if ((*src >= 'a' && *src <= 'z') || (*src >= 'A' && *src <= 'Z'))
            dst[n++] = (char)(*src | 0x20);
    dst[n] = '\0';
}

static int user_taken(const DemoWorld *w, const char *u)
{
    for (int i = 0; i < w->npeople; i++)
        if (strcmp(w->people[i].user, u) == 0)
            return 1;
    return 0;
}

/* "amoreau", then "amoreau2"... unique across the institute. */
static void make_user(const DemoWorld *w, const char *first, const char *last, char *out,
                      size_t cap)
{
    char base[12];
    lower_letters(base + 1, sizeof base - 1, last);
    base[0] = (char)(first[0] | 0x20);
    snprintf(out, cap, "%s", base);
    for (int k = 2; user_taken(w, out); k++)
        snprintf(out, cap, "%s%d", base, k);
}

static DemoPerson *new_person(DemoWorld *w)
{
    if (w->npeople == w->cappeople) {
        w->cappeople = w->cappeople ? w->cappeople * 2 : 256;
        w->people = xrealloc(w->people, (size_t)w->cappeople * sizeof *w->people);
    }
    DemoPerson *p = &w->people[w->npeople];
    memset(p, 0, sizeof *p);
    p->uid = 20001 + w->npeople;
    return p;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int primary_pattern(DemoRng *r, const DemoGroup *g, DemoRole role)
{
    double wts[DEMO_PAT_COUNT];
    memcpy(wts, demo_domains[g->domain].pattern_w, sizeof wts);
    if (role == DEMO_ROLE_PROFESSOR)
        return DEMO_PAT_INTERACTIVE;
    if (role == DEMO_ROLE_STAFF)
        return demo_rng_bern(r, 0.5) ? DEMO_PAT_CPU : DEMO_PAT_SINGLE;
    if (role == DEMO_ROLE_MSC) { /* MSc projects: smaller, shorter work */
        wts[DEMO_PAT_INTERACTIVE] *= 2.5;
        wts[DEMO_PAT_MULTI] *= 0.3;
        wts[DEMO_PAT_BIGMEM] *= 0.3;
    }
    return demo_rng_pick(r, wts, DEMO_PAT_COUNT);
}

/* Typical peak GPU memory (GiB) of a member whose main work is pattern pat:
 * notebooks a few GiB, single-GPU models up to a 40 GB card, multi-GPU
 * training 20-72 GiB per GPU, large models above the 48 GB class. */
static double pattern_mem(DemoRng *r, int pat)
{
    switch (pat) {
    case DEMO_PAT_INTERACTIVE: return clampd(demo_rng_lognormal(r, 4, 0.5), 1, 12);
    case DEMO_PAT_SINGLE: return clampd(demo_rng_lognormal(r, 12, 0.6), 2, 40);
    case DEMO_PAT_MULTI: return demo_rng_range(r, 20, 72);
    case DEMO_PAT_BIGMEM: return demo_rng_range(r, 52, 79);
    case DEMO_PAT_HPO: return clampd(demo_rng_lognormal(r, 6, 0.5), 1.5, 20);
    default: return 0;
    }
}

/* Mean GPU utilisation (%) by pattern: notebooks mostly idle, training
 * busy. In the three idle-holding groups, 80 % of the members run at a
 * tenth of that and keep notebooks open on the gpu partition for a day or
 * two (the classic GPU held by a forgotten Jupyter session). */
static double pattern_util(DemoRng *r, int pat)
{
    static const double lo[DEMO_PAT_COUNT] = {8, 55, 60, 70, 50, 0};
    static const double hi[DEMO_PAT_COUNT] = {30, 92, 95, 96, 90, 0};
    return demo_rng_range(r, lo[pat], hi[pat]);
}

static void pick_names(DemoRng *r, DemoPerson *p)
{
    int a = demo_name_start[p->pat], n = demo_name_start[p->pat + 1] - a;
    int b = demo_name_start[p->pat2], n2 = demo_name_start[p->pat2 + 1] - b;
    p->names[0] = a + (int)demo_rng_below(r, n);
    p->names[1] = a + (int)demo_rng_below(r, n);
    p->names[2] = b + (int)demo_rng_below(r, n2);
}

static void person_traits(DemoWorld *w, DemoRng *r, DemoPerson *p)
{
    static const double role_intensity[DEMO_ROLE_COUNT] = {0.08, 1.1, 0.45, 1.0, 0.5};
    /* weights indexed by GPU count: multi-GPU 2/4/8, large-memory 1/2/4 */
    static const double gpus_multi[] = {0, 0, 0.15, 0, 0.40, 0, 0, 0, 0.45};
    static const double gpus_big[] = {0, 0.40, 0.30, 0, 0.30};
    static const double cpg_w[] = {0.2, 0.3, 0.35, 0.15};
    static const int cpg[] = {4, 6, 8, 12};
    const DemoGroup *g = &w->groups[p->group];
    p->pat = (uint8_t)primary_pattern(r, g, p->role);
    p->pat2 = p->pat == DEMO_PAT_INTERACTIVE ? DEMO_PAT_SINGLE : DEMO_PAT_INTERACTIVE;
    p->share2 = demo_rng_range(r, 0.1, 0.3);
    p->intensity = role_intensity[p->role] * demo_rng_lognormal(r, 1.0, 0.6);
    if (p->role == DEMO_ROLE_PROFESSOR && demo_rng_bern(r, 0.6))
        p->intensity = 0; /* most professors run nothing themselves */
    p->idle = g->idle && demo_rng_bern(r, 0.8);
    for (int k = 0; k < 2; k++) {
        int pat = k ? p->pat2 : p->pat;
        p->mem_gib[k] = pattern_mem(r, pat);
        p->util[k] = pattern_util(r, pat) * (p->idle ? 0.1 : 1.0);
    }
    p->dur_scale = demo_rng_lognormal(r, 1.0, 0.4);
    p->pref_gpus = p->pat == DEMO_PAT_MULTI ? demo_rng_pick(r, gpus_multi, 9)
                   : p->pat == DEMO_PAT_BIGMEM ? demo_rng_pick(r, gpus_big, 5)
                                               : 1;
    static const double limit_w[] = {0.25, 0.45, 0.30};
    p->limit_choice = demo_rng_pick(r, limit_w, 3);
    p->cpus_per_gpu = cpg[demo_rng_pick(r, cpg_w, 4)];
    p->mem_per_cpu_gib = 4.0 + 2.0 * (double)demo_rng_below(r, 3);
    pick_names(r, p);
}

static int64_t years(double y);

/* The end a roster line plans for when it starts (issue 28): a PhD's four
 * years, an MSc's programme end (August 31 two years after the September
 * it started), a postdoc's contract of two or three years (the one
 * nearest the actual stay); none for professors and staff. The actual end
 * drawn elsewhere differs: some finish early, some extend. No draw: the
 * demo's random stream is unchanged. */
static int64_t planned_end(DemoRole role, int64_t start, int64_t end)
{
    switch (role) {
    case DEMO_ROLE_PHD:
        return start + years(4);
    case DEMO_ROLE_MSC: {
        int y, mo, d;
        demo_ymd(start, &y, &mo, &d);
        return demo_date(mo >= 7 ? y + 2 : y + 1, 8, 31);
    }
    case DEMO_ROLE_POSTDOC:
        return end == DEMO_NEVER ? DEMO_NEVER : start + years(end - start < years(2.25) ? 2 : 3);
    default:
        return DEMO_NEVER;
    }
}

static int add_person(DemoWorld *w, DemoRng *r, int group, DemoRole role, int64_t start,
                      int64_t end, const char *first, const char *last, const char *user)
{
    DemoPerson *p = new_person(w);
    p->group = group;
    p->role = role;
    p->start = demo_day_of(start);
    p->end = end == DEMO_NEVER ? DEMO_NEVER : demo_day_of(end);
    int64_t pl = planned_end(role, start, end);
    p->planned = pl == DEMO_NEVER ? DEMO_NEVER : demo_day_of(pl);
    snprintf(p->first, sizeof p->first, "%s", first);
    snprintf(p->last, sizeof p->last, "%s", last);
    if (user)
        snprintf(p->user, sizeof p->user, "%s", user);
    else
        make_user(w, first, last, p->user, sizeof p->user);
    person_traits(w, r, p);
    return w->npeople++;
}

/* A member of group g with a random name; dropped (returns -1) when the
 * stay does not overlap the history. */
static int add_member(DemoWorld *w, DemoRng *r, int g, DemoRole role, int64_t start, int64_t end)
{
    if (start >= w->today || (end != DEMO_NEVER && end <= w->t0) || end <= start)
        return -1;
    const char *first = first_names[demo_rng_below(r, NFIRST)];
    const char *last = last_names[25 + demo_rng_below(r, NLAST - 25)];
    return add_person(w, r, g, role, start, end, first, last, NULL);
}

static int64_t years(double y)
{
    return (int64_t)(y * 365.25 * DEMO_DAY);
}

/* A PhD of about four years (sd 0.5, 3.2..5.8); 8 % leave early. */
static int64_t phd_end(DemoRng *r, int64_t start)
{
    if (demo_rng_bern(r, 0.08))
        return start + years(demo_rng_range(r, 0.5, 2.5));
    return start + years(clampd(4.0 + 0.5 * demo_rng_normal(r), 3.2, 5.8));
}

/* An MSc from September to the summer two years later; 20 % go on to a
 * PhD in the same group under the same user name (a second roster line). */
static void add_msc(DemoWorld *w, DemoRng *r, int g, int y)
{
    int64_t start = demo_date(y, 9, 1) + demo_rng_below(r, 20) * DEMO_DAY;
    int64_t end = demo_date(y + 2, 8, 31) - demo_rng_below(r, 60) * DEMO_DAY;
    int i = add_member(w, r, g, DEMO_ROLE_MSC, start, end);
    if (i < 0 || !demo_rng_bern(r, 0.2) || end >= w->today)
        return;
    if (w->groups[g].intake_stop <= end)
        return;
    int64_t s2 = demo_date(y + 2, 9, 1) + demo_rng_below(r, 30) * DEMO_DAY;
    if (s2 >= w->today)
        return;
    char user[16], first[16], last[20];
    snprintf(user, sizeof user, "%s", w->people[i].user);
    snprintf(first, sizeof first, "%s", w->people[i].first);
    snprintf(last, sizeof last, "%s", w->people[i].last);
    add_person(w, r, g, DEMO_ROLE_PHD, s2, phd_end(r, s2), first, last, user);
}

/* One academic year's intake of group g (the year starting in September
 * of y): Poisson counts, 1.1 PhD, 0.9 MSc and 0.35 postdoc per unit of
 * group size, growing by the group's rate from the start of the history. */
static void intake_year(DemoWorld *w, DemoRng *r, int g, int y)
{
    const DemoGroup *gr = &w->groups[g];
    int64_t sep = demo_date(y, 9, 1);
    if (sep < gr->start - 180 * DEMO_DAY || sep >= gr->intake_stop)
        return;
    double yrel = (double)(sep - w->t0) / (double)years(1);
    double scale = gr->size * pow(1.0 + gr->growth, yrel);
    int nphd = demo_rng_poisson(r, 1.1 * scale);
    for (int k = 0; k < nphd; k++) {
        int64_t s = demo_rng_bern(r, 0.8) ? sep + demo_rng_below(r, 40) * DEMO_DAY
                                          : demo_date(y + 1, 1, 8) + demo_rng_below(r, 30) * DEMO_DAY;
        add_member(w, r, g, DEMO_ROLE_PHD, s, phd_end(r, s));
    }
    int nmsc = demo_rng_poisson(r, 0.9 * scale);
    for (int k = 0; k < nmsc; k++)
        add_msc(w, r, g, y);
    int npd = demo_rng_poisson(r, 0.35 * scale);
    for (int k = 0; k < npd; k++) {
        int64_t s = sep + demo_rng_below(r, 365) * DEMO_DAY;
        add_member(w, r, g, DEMO_ROLE_POSTDOC, s, s + years(demo_rng_range(r, 1.5, 3.0)));
    }
}

/* A new group's first members: two PhD students and a postdoc within
 * three months of the professor's arrival. */
static void founding_members(DemoWorld *w, DemoRng *r, int g)
{
    int64_t s = w->groups[g].start;
    for (int k = 0; k < 2; k++) {
        int64_t st = s + demo_rng_below(r, 90) * DEMO_DAY;
        add_member(w, r, g, DEMO_ROLE_PHD, st, phd_end(r, st));
    }
    int64_t st = s + demo_rng_below(r, 90) * DEMO_DAY;
    add_member(w, r, g, DEMO_ROLE_POSTDOC, st, st + years(2.5));
}

static void make_group(DemoWorld *w, DemoRng *r, int g, const char *prof_last)
{
    const GroupSpec *s = &group_specs[g];
    DemoGroup *gr = &w->groups[g];
    char slug[24];
    lower_letters(slug, sizeof slug, prof_last);
    snprintf(gr->name, sizeof gr->name, "%s-lab", slug);
    gr->domain = s->domain;
    gr->start = s->start_month > 0 ? month_at(w, s->start_month) : w->t0 - years(20);
    gr->intake_stop = s->stop_month >= 0 ? month_at(w, s->stop_month) : DEMO_NEVER;
    gr->growth = s->growth;
    gr->size = demo_rng_lognormal(r, 1.0, 0.3);
    gr->home = s->home;
    gr->cirrus = s->cirrus;
    gr->idle = s->idle;
    int64_t prof_start =
        s->start_month > 0 ? gr->start : w->t0 - years(demo_rng_range(r, 2, 20));
    const char *first = first_names[demo_rng_below(r, NFIRST)];
    gr->prof = add_person(w, r, g, DEMO_ROLE_PROFESSOR, prof_start, DEMO_NEVER, first, prof_last,
                          NULL);
}

static void populate_group(DemoWorld *w, DemoRng *r, int g)
{
    int y0, m0, d0, yt, mt, dt;
    demo_ymd(w->t0, &y0, &m0, &d0);
    demo_ymd(w->today, &yt, &mt, &dt);
    if (group_specs[g].start_month > 0)
        founding_members(w, r, g);
    else if (demo_rng_bern(r, 0.3))
        add_member(w, r, g, DEMO_ROLE_STAFF, w->t0 - years(demo_rng_range(r, 1, 8)), DEMO_NEVER);
    for (int y = y0 - 6; y <= yt; y++)
        intake_year(w, r, g, y);
}

/* Professors' surnames: the first 25 of the list, shuffled. */
static void shuffle_prof_names(DemoRng *r, const char **out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = last_names[i];
    for (int i = n - 1; i > 0; i--) {
        int j = (int)demo_rng_below(r, i + 1);
        const char *t = out[i];
        out[i] = out[j];
        out[j] = t;
    }
}

void demo_institute(DemoWorld *w)
{
    DemoRng r;
    demo_rng_seed(&r, w->o->seed, 1);
    make_pools(w);
    make_events(w);
    const char *prof_names[NGROUPS];
    shuffle_prof_names(&r, prof_names, NGROUPS);
    w->ngroups = NGROUPS;
    w->groups = xcalloc((size_t)NGROUPS, sizeof *w->groups);
    for (int g = 0; g < NGROUPS; g++)
        make_group(w, &r, g, prof_names[g]);
    for (int g = 0; g < NGROUPS; g++)
        populate_group(w, &r, g);
}
