/* gen_sacct: writes a realistic `sacct -a -D -P` file of a synthetic GPU
 * research cluster, for benchmarks and large-input tests.
 *
 *   gen_sacct --jobs N --seed S [--steps] [--cluster C] [--days D]
 *             [--start YYYY-MM-DD] [--no-gpumem] [--wide] [--users U]
 *             [--accounts A] [--first-id ID] > file
 *
 * The shapes follow real Slurm 22.05 output (shared/data/slurm-sandbox):
 * JobName is the last column (it may hold the delimiter), step rows have
 * empty User, Partition, Timelimit, ReqMem and ReqTRES, MaxRSS and
 * TRESUsageInMax appear on step rows only, .batch AllocTRES has no billing,
 * TIMEOUT and PREEMPTED jobs have a .batch step CANCELLED 0:15, array tasks
 * show JobID "base_task" with their own JobIDRaw (the last task keeps the
 * base id), and with -D a preempted or node-failed attempt is followed
 * later in the file by the requeued attempt of the same JobIDRaw, its
 * Submit being the requeue time. Jobs still running or pending at the end
 * of the period show End "Unknown".
 *
 * N counts first attempts (array tasks included); requeued attempts add a
 * few percent more job rows. Same arguments, same bytes: the generator has
 * its own PRNG (splitmix64 seeding xoshiro256**), never rand(). Standalone:
 * links nothing from capplan. */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OUT_CAP (1u << 20)
#define LINE_MAX_BYTES 8192
#define NUSERS 240     /* the default site */
#define NACCOUNTS 34   /* named topics; --accounts above it numbers them */
#define MAX_USERS 5000
#define MAX_ACCOUNTS 1000
#define T_UNKNOWN (-1)
#define T_NONE (-2)
#define MAX_ATTEMPTS 4

/* ---------------------------------------------------------------- PRNG */

typedef struct Rng {
    uint64_t s[4];
} Rng;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, 1). */
static double rng_unif(Rng *r)
{
    return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform integer in [lo, hi]. */
static int64_t rng_range(Rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_unif(r) * (double)(hi - lo + 1));
}

static double rng_normal(Rng *r)
{
    double u1 = rng_unif(r), u2 = rng_unif(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Log-normal with the given median and sigma (of the log). */
static double rng_lognormal(Rng *r, double median, double sigma)
{
    return median * exp(sigma * rng_normal(r));
}

/* Index drawn from cumulative-free weights w[0..n-1]. */
static int rng_pick(Rng *r, const double *w, int n)
{
    double sum = 0, x;
    for (int i = 0; i < n; i++)
        sum += w[i];
    x = rng_unif(r) * sum;
    for (int i = 0; i < n; i++) {
        if (x < w[i])
            return i;
        x -= w[i];
    }
    return n - 1;
}

/* -------------------------------------------------------------- output */

typedef struct Out {
    char *buf;
    size_t len;
} Out;

static void die(const char *msg)
{
    fprintf(stderr, "gen_sacct: %s\n", msg);
    exit(1);
}

static void o_flush(Out *o)
{
    if (o->len && fwrite(o->buf, 1, o->len, stdout) != o->len) {
        fprintf(stderr, "gen_sacct: write error: %s\n", strerror(errno));
        exit(1);
    }
    o->len = 0;
}

/* Called at the start of every line: room for one whole line. */
static void o_line(Out *o)
{
    if (o->len + LINE_MAX_BYTES > OUT_CAP)
        o_flush(o);
}

static void o_ch(Out *o, char c)
{
    o->buf[o->len++] = c;
}

static void o_sep(Out *o)
{
    o->buf[o->len++] = '|';
}

static void o_str(Out *o, const char *s)
{
    size_t n = strlen(s);
    memcpy(o->buf + o->len, s, n);
    o->len += n;
}

static void o_int(Out *o, int64_t v)
{
    char tmp[24];
    int n = 0;
    uint64_t u;
    if (v < 0) {
        o_ch(o, '-');
        u = (uint64_t)(-(v + 1)) + 1;
    } else {
        u = (uint64_t)v;
    }
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (n)
        o_ch(o, tmp[--n]);
}

static void o_2d(Out *o, int v)
{
    o_ch(o, (char)('0' + v / 10));
    o_ch(o, (char)('0' + v % 10));
}

/* Civil date of days since 1970-01-01 (H. Hinnant's algorithm). */
static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

static int64_t days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* "2024-01-23T16:58:36", or "Unknown"/"None". */
static void o_time(Out *o, int64_t t)
{
    if (t == T_UNKNOWN) {
        o_str(o, "Unknown");
        return;
    }
    if (t == T_NONE) {
        o_str(o, "None");
        return;
    }
    int y, m, d;
    int64_t secs = t % 86400;
    civil_from_days(t / 86400, &y, &m, &d);
    o_int(o, y);
    o_ch(o, '-');
    o_2d(o, m);
    o_ch(o, '-');
    o_2d(o, d);
    o_ch(o, 'T');
    o_2d(o, (int)(secs / 3600));
    o_ch(o, ':');
    o_2d(o, (int)(secs / 60 % 60));
    o_ch(o, ':');
    o_2d(o, (int)(secs % 60));
}

/* "[D-]HH:MM:SS" as sacct prints Elapsed and Timelimit. */
static void o_dur(Out *o, int64_t s)
{
    if (s >= 86400) {
        o_int(o, s / 86400);
        o_ch(o, '-');
        s %= 86400;
    }
    o_2d(o, (int)(s / 3600));
    o_ch(o, ':');
    o_2d(o, (int)(s / 60 % 60));
    o_ch(o, ':');
    o_2d(o, (int)(s % 60));
}

/* Memory as TRES and ReqMem print it: "64G", "1500M". */
static void o_mem(Out *o, int64_t mib)
{
    if (mib % 1024 == 0) {
        o_int(o, mib / 1024);
        o_ch(o, 'G');
    } else {
        o_int(o, mib);
        o_ch(o, 'M');
    }
}

/* ----------------------------------------------------------- the site */

typedef struct Pool {
    const char *prefix;  /* node names: prefix + 3 digits */
    const char *gpu;     /* GPU type, NULL for CPU nodes */
    int gpus_per_node;
    int cpus_per_node;
    int64_t mem_mib;     /* per node */
    int nodes;
    int64_t gpu_mem_mib; /* per GPU, as NVML reports it */
    int billing_per_gpu;
} Pool;

enum { P_A100, P_H100, P_V100, P_L40S, P_MIG, P_CPU, NPOOLS };

static const Pool pools[NPOOLS] = {
    [P_A100] = {"gpu-a", "a100", 4, 64, 515000, 48, 81920, 32},
    [P_H100] = {"gpu-h", "h100", 8, 112, 2000 * 1024, 16, 81559, 64},
    [P_V100] = {"gpu-v", "v100", 4, 40, 384 * 1024, 24, 32768, 8},
    [P_L40S] = {"gpu-l", "l40s", 4, 48, 384 * 1024, 20, 46068, 16},
    [P_MIG] = {"gpu-m", "a100_3g.20gb", 8, 64, 515000, 4, 20096, 8},
    [P_CPU] = {"cn", NULL, 0, 128, 512 * 1024, 200, 0, 0},
};

typedef struct Partition {
    const char *name;
    int64_t max_limit;   /* seconds */
    double pool_w[NPOOLS];
    int preemptible;
    int interactive;
} Partition;

enum { PT_GPU, PT_H100, PT_PREEMPT, PT_INTERACTIVE, PT_CPU, PT_DEBUG, NPARTS };

static const Partition parts[NPARTS] = {
    [PT_GPU] = {"gpu", 2 * 86400, {60, 0, 15, 25, 0, 0}, 0, 0},
    [PT_H100] = {"gpu-h100", 2 * 86400, {0, 1, 0, 0, 0, 0}, 0, 0},
    [PT_PREEMPT] = {"preempt", 86400, {40, 15, 20, 25, 0, 0}, 1, 0},
    [PT_INTERACTIVE] = {"interactive", 8 * 3600, {0, 0, 0, 0, 1, 0}, 0, 1},
    [PT_CPU] = {"cpu", 3 * 86400, {0, 0, 0, 0, 0, 1}, 0, 0},
    [PT_DEBUG] = {"debug", 1800, {50, 0, 0, 50, 0, 0}, 0, 0},
};

static const double part_w[NPARTS] = {45, 12, 15, 8, 14, 6};

static const char *const topics[NACCOUNTS] = {
    "nlp", "vision", "robotics", "genomics", "climate", "astro", "chem", "neuro",
    "speech", "rl", "graphics", "hep", "materials", "bioimg", "finance", "quantum",
    "ml-theory", "med-ai", "hci", "systems", "ecology", "geo", "proteins", "cosmo",
    "mt", "recsys", "privacy", "security", "pde", "fluids", "optics", "econ", "ling",
    "edu"};

/* An account's topic: the named ones, then "nlp2", "vision2"... past them
 * (--accounts above NACCOUNTS). */
static void o_topic(Out *o, int a)
{
    o_str(o, topics[a % NACCOUNTS]);
    if (a >= NACCOUNTS)
        o_int(o, a / NACCOUNTS + 1);
}

static const char *const surnames[] = {
    "martin", "chen", "garcia", "muller", "rossi", "dubois", "nguyen", "kowalski",
    "silva", "smith", "tanaka", "kim", "patel", "ivanov", "jensen", "novak", "costa",
    "schmidt", "lopez", "wang", "li", "zhang", "moreau", "fischer", "berg", "haddad",
    "okafor", "singh", "sato", "olsen", "ferrari", "weber", "meyer", "petit", "roux",
    "bianchi", "yilmaz", "cohen", "ahmed", "park"};
#define NSURNAMES ((int)(sizeof surnames / sizeof surnames[0]))

static const char *const models[] = {
    "llama7b", "llama70b", "bert", "resnet50", "vit-b16", "gpt2", "t5-large", "unet",
    "sd-xl", "whisper", "mistral7b", "clip", "gnn", "nerf", "dino", "mae", "ppo"};
#define NMODELS ((int)(sizeof models / sizeof models[0]))

/* Names real users give, and a few that test readers: a delimiter (only
 * safe because JobName is the last column), quotes, spaces, UTF-8. */
static const char *const plain_names[] = {
    "bash", "sys/dashboard/sys/jupyter", "jupyter-notebook", "interactive", "run.sh",
    "job.slurm", "preprocess", "gromacs_md", "alphafold2", "vllm-serve", "wandb-agent",
    "cryosparc_worker", "vasp_relax", "nnunet_train", "make_dataset", "tokenize",
    "sbatch_eval.sh", "python"};
#define NPLAIN ((int)(sizeof plain_names / sizeof plain_names[0]))

static const char *const odd_names[] = {
    "a|b split", "exp \"big\" run", "entraînement été", "name with  spaces", "x|y|z",
    "résumé-lr=3e-4;bs=32", "tab\tin name"};
#define NODD ((int)(sizeof odd_names / sizeof odd_names[0]))

typedef struct User {
    char name[24];
    int uid;
    int account, account2;
    int home_part;
    int gpus;          /* typical GPUs per job */
    double median_s;   /* typical runtime */
    int name_style;
    double weight;     /* activity */
    double mem_frac;   /* typical peak RSS share of the request */
    double gpumem_frac;
} User;

/* ---------------------------------------------------------------- jobs */

typedef enum St {
    ST_COMPLETED, ST_FAILED, ST_CANCELLED, ST_TIMEOUT, ST_OOM, ST_NODE_FAIL, ST_PREEMPTED,
    ST_RUNNING, ST_PENDING, ST_CANCELLED_PENDING
} St;

typedef struct Job {
    int64_t raw;
    int64_t array_base; /* 0 when not an array task */
    int task;
    int user, account, part, pool;
    int gpus, cpus, nodes, node0;
    int typed_req;
    int64_t mem_mib;
    int64_t limit;
    int64_t want_s;      /* runtime the job would need */
    int attempt;
    int64_t submit, eligible, start, end;
    St st;
    int exit_code, exit_sig, cancel_uid;
    int srun_step;
    double rss_frac, gpumem_frac, util;
    char name[64];
} Job;

typedef struct Heap {
    Job *a;
    size_t n, cap;
} Heap;

static int heap_less(const Job *x, const Job *y)
{
    return x->submit < y->submit || (x->submit == y->submit && x->raw < y->raw);
}

static void heap_push(Heap *h, const Job *j)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 64;
        h->a = realloc(h->a, h->cap * sizeof *h->a);
        if (!h->a)
            die("out of memory");
    }
    size_t i = h->n++;
    h->a[i] = *j;
    while (i && heap_less(&h->a[i], &h->a[(i - 1) / 2])) {
        Job t = h->a[i];
        h->a[i] = h->a[(i - 1) / 2];
        h->a[(i - 1) / 2] = t;
        i = (i - 1) / 2;
    }
}

static void heap_pop(Heap *h, Job *out)
{
    *out = h->a[0];
    h->a[0] = h->a[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && heap_less(&h->a[l], &h->a[m]))
            m = l;
        if (r < h->n && heap_less(&h->a[r], &h->a[m]))
            m = r;
        if (m == i)
            break;
        Job t = h->a[i];
        h->a[i] = h->a[m];
        h->a[m] = t;
        i = m;
    }
}

typedef struct Gen {
    Rng rng;
    Out out;
    const char *cluster;
    int steps, gpumem;
    int wide;          /* --wide: the 26-field export shape (issue 14) */
    int64_t t0, now;   /* period: [t0, now] */
    int64_t next_id;
    int nusers, naccounts; /* --users, --accounts (240, 34) */
    User users[MAX_USERS];
    double user_w[MAX_USERS];
    Heap requeue;
    int64_t rows;
} Gen;

static void setup_users(Gen *g)
{
    static const double gpus_w[] = {50, 15, 22, 10, 3};
    static const int gpus_v[] = {1, 2, 4, 8, 16};
    for (int u = 0; u < g->nusers; u++) {
        User *us = &g->users[u];
        int s = (int)rng_range(&g->rng, 0, NSURNAMES - 1);
        char initial = (char)('a' + rng_range(&g->rng, 0, 25));
        if (u < NSURNAMES * 2 && rng_unif(&g->rng) < 0.7)
            snprintf(us->name, sizeof us->name, "%c%s", initial, surnames[s]);
        else
            snprintf(us->name, sizeof us->name, "%c%s%d", initial, surnames[s], u % 100);
        for (int k = 0; k < u; k++) /* user names are unique */
            if (strcmp(g->users[k].name, us->name) == 0) {
                snprintf(us->name, sizeof us->name, "%c%s%d", initial, surnames[s], u);
                break;
            }
        us->uid = 10000 + u * 7 + (int)rng_range(&g->rng, 0, 6);
        us->account = (int)rng_range(&g->rng, 0, g->naccounts - 1);
        us->account2 = rng_unif(&g->rng) < 0.15 ? (int)rng_range(&g->rng, 0, g->naccounts - 1)
                                                  : us->account;
        us->home_part = rng_pick(&g->rng, part_w, NPARTS);
        us->gpus = gpus_v[rng_pick(&g->rng, gpus_w, 5)];
        us->median_s = exp(log(600.0) + rng_unif(&g->rng) * (log(12 * 3600.0) - log(600.0)));
        us->name_style = (int)rng_range(&g->rng, 0, 5);
        us->weight = 1.0 / pow(u + 1.0, 1.05); /* Zipf: a few heavy users */
        us->mem_frac = 0.05 + 0.6 * rng_unif(&g->rng);
        us->gpumem_frac = 0.1 + 0.85 * rng_unif(&g->rng);
        g->user_w[u] = us->weight;
    }
}

static void make_name(Gen *g, Job *j, const User *u)
{
    Rng *r = &g->rng;
    if (rng_unif(r) < 0.0004) {
        snprintf(j->name, sizeof j->name, "%s", odd_names[rng_range(r, 0, NODD - 1)]);
        return;
    }
    const char *m = models[(u->uid + (int)rng_range(r, 0, 2)) % NMODELS];
    switch (parts[j->part].interactive ? 9 : u->name_style) {
    case 0:
        snprintf(j->name, sizeof j->name, "train_%s", m);
        break;
    case 1:
        snprintf(j->name, sizeof j->name, "hpo-trial-%d", (int)rng_range(r, 0, 499));
        break;
    case 2:
        snprintf(j->name, sizeof j->name, "%s_seed%d", m, (int)rng_range(r, 0, 9));
        break;
    case 3:
        snprintf(j->name, sizeof j->name, "sweep_lr%de-%d_bs%d", (int)rng_range(r, 1, 9),
                 (int)rng_range(r, 3, 5), 16 << rng_range(r, 0, 4));
        break;
    case 4:
        snprintf(j->name, sizeof j->name, "eval-%s", m);
        break;
    case 9:
        snprintf(j->name, sizeof j->name, "%s", rng_unif(r) < 0.6 ? "sys/dashboard/sys/jupyter"
                                                                   : "bash");
        break;
    default:
        snprintf(j->name, sizeof j->name, "%s", plain_names[rng_range(r, 0, NPLAIN - 1)]);
        break;
    }
}

/* Shape of a new job (first attempt): partition, resources, limit, need. */
static void new_job(Gen *g, Job *j, int64_t submit)
{
    Rng *r = &g->rng;
    memset(j, 0, sizeof *j);
    j->user = rng_pick(r, g->user_w, g->nusers);
    const User *u = &g->users[j->user];
    j->account = rng_unif(r) < 0.8 ? u->account : u->account2;
    j->part = rng_unif(r) < 0.7 ? u->home_part : rng_pick(r, part_w, NPARTS);
    const Partition *pt = &parts[j->part];
    j->pool = rng_pick(r, pt->pool_w, NPOOLS);
    const Pool *pl = &pools[j->pool];
    if (pl->gpu) {
        int want = rng_unif(r) < 0.75 ? u->gpus : 1 << rng_range(r, 0, 3);
        if (pt->interactive || j->part == PT_DEBUG)
            want = 1;
        j->gpus = want;
        j->nodes = (want + pl->gpus_per_node - 1) / pl->gpus_per_node;
        if (j->nodes > 1)
            j->gpus = j->nodes * pl->gpus_per_node;
        int per_gpu = pl->cpus_per_node / pl->gpus_per_node;
        j->cpus = j->gpus * (rng_unif(r) < 0.5 ? per_gpu : (per_gpu + 1) / 2);
        j->mem_mib = rng_unif(r) < 0.5 ? (int64_t)j->gpus * (pl->mem_mib / pl->gpus_per_node / 1024) * 1024
                                       : (int64_t)j->gpus * 32 * 1024;
        j->typed_req = rng_unif(r) < 0.4;
    } else {
        j->nodes = rng_unif(r) < 0.9 ? 1 : (int)rng_range(r, 2, 8);
        j->cpus = j->nodes > 1 ? j->nodes * pl->cpus_per_node : 1 << rng_range(r, 0, 6);
        j->mem_mib = rng_unif(r) < 0.5 ? (int64_t)j->cpus * 4000 : (int64_t)j->cpus * 2 * 1024;
    }
    j->node0 = (int)rng_range(r, 0, pl->nodes - j->nodes);
    static const int64_t limits[] = {1800, 3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400,
                                     3 * 86400};
    j->limit = rng_unif(r) < 0.45 ? pt->max_limit : limits[rng_range(r, 0, 6)];
    if (j->limit > pt->max_limit)
        j->limit = pt->max_limit;
    double want_s = rng_lognormal(r, u->median_s, 1.6);
    if (rng_unif(r) < 0.10)
        want_s = (double)rng_range(r, 2, 600); /* crashes at start-up */
    j->want_s = (int64_t)want_s + 1;
    j->submit = submit;
    j->srun_step = j->nodes > 1 || rng_unif(r) < 0.06;
    j->rss_frac = u->mem_frac * (0.5 + rng_unif(r));
    j->gpumem_frac = u->gpumem_frac * (0.6 + 0.45 * rng_unif(r));
    if (j->gpumem_frac > 0.99)
        j->gpumem_frac = 0.99;
    j->util = 15 + 84 * rng_unif(r);
    make_name(g, j, u);
}

/* Queue wait: most start at once, a heavy tail waits for days. */
static int64_t draw_wait(Gen *g, const Job *j)
{
    Rng *r = &g->rng;
    if (rng_unif(r) < 0.35)
        return rng_range(r, 0, 30);
    double med = j->part == PT_H100 ? 3 * 3600.0 : 600.0;
    double w = rng_lognormal(r, med, 1.8);
    return w > 7 * 86400 ? 7 * 86400 : (int64_t)w;
}

/* Decide how this attempt ends, given its submit time. */
static void run_attempt(Gen *g, Job *j)
{
    Rng *r = &g->rng;
    const User *u = &g->users[j->user];
    j->exit_code = j->exit_sig = 0;
    j->eligible = j->attempt ? j->submit + 120 : j->submit;
    if (j->attempt == 0 && rng_unif(r) < 0.015) { /* cancelled while pending */
        j->st = ST_CANCELLED_PENDING;
        if (rng_unif(r) < 0.3)
            j->eligible = T_UNKNOWN; /* a dependency never met */
        j->start = T_NONE;
        j->end = j->submit + rng_range(r, 5, 2 * 86400);
        j->cancel_uid = rng_unif(r) < 0.9 ? u->uid : 0;
        if (j->end > g->now) {
            j->st = ST_PENDING;
            j->end = T_UNKNOWN;
        }
        return;
    }
    j->start = (j->eligible == T_UNKNOWN ? j->submit : j->eligible) + draw_wait(g, j);
    int64_t run = j->want_s;
    double x = rng_unif(r);
    if (parts[j->part].preemptible && j->attempt < MAX_ATTEMPTS - 1 && rng_unif(r) < 0.3) {
        j->st = ST_PREEMPTED;
        run = rng_range(r, 30, run < j->limit ? run : j->limit);
    } else if (j->attempt < MAX_ATTEMPTS - 1 && x < 0.002) {
        j->st = ST_NODE_FAIL;
        j->exit_code = 1;
        run = rng_range(r, 60, run < j->limit ? run : j->limit);
    } else if (run > j->limit) {
        j->st = ST_TIMEOUT;
        run = j->limit + rng_range(r, 0, 90);
    } else if (j->want_s <= 600 && x < 0.6) {
        j->st = ST_FAILED;
        j->exit_code = rng_unif(r) < 0.7 ? 1 : (rng_unif(r) < 0.5 ? 2 : 127);
    } else if (x < 0.78) {
        j->st = ST_COMPLETED;
    } else if (x < 0.86) {
        j->st = ST_FAILED;
        j->exit_code = rng_unif(r) < 0.8 ? 1 : 2;
        run = rng_range(r, 1, run);
    } else if (x < 0.965) {
        j->st = ST_CANCELLED;
        j->cancel_uid = rng_unif(r) < 0.88 ? u->uid : 0;
        run = rng_range(r, 1, run);
    } else {
        j->st = ST_OOM;
        j->exit_sig = 125;
        run = rng_range(r, 1, run);
    }
    j->end = j->start + run;
    if (j->start > g->now) {
        j->st = ST_PENDING;
        j->start = T_UNKNOWN;
        j->end = T_UNKNOWN;
        j->exit_code = j->exit_sig = 0;
    } else if (j->end > g->now) {
        j->st = ST_RUNNING;
        j->end = T_UNKNOWN;
        j->exit_code = j->exit_sig = 0;
    }
}

static int started(const Job *j)
{
    return j->start >= 0;
}

static int64_t elapsed_of(const Gen *g, const Job *j)
{
    if (!started(j))
        return 0;
    return (j->end >= 0 ? j->end : g->now) - j->start;
}

static void o_job_id(Out *o, const Job *j)
{
    if (j->array_base) {
        o_int(o, j->array_base);
        o_ch(o, '_');
        o_int(o, j->task);
    } else {
        o_int(o, j->raw);
    }
}

static void o_nodelist(Out *o, const Job *j, int nodes)
{
    const Pool *pl = &pools[j->pool];
    o_str(o, pl->prefix);
    if (nodes == 1) {
        o_ch(o, (char)('0' + (j->node0 + 1) / 100));
        o_2d(o, (j->node0 + 1) % 100);
        return;
    }
    o_ch(o, '[');
    for (int k = 0; k < 2; k++) {
        int n = j->node0 + 1 + (k ? nodes - 1 : 0);
        o_ch(o, (char)('0' + n / 100));
        o_2d(o, n % 100);
        if (!k)
            o_ch(o, '-');
    }
    o_ch(o, ']');
}

/* "billing=..,cpu=..,gres/gpu:a100=4,gres/gpu=4,mem=..,node=.." for the
 * whole job (nodes == j->nodes) or one node of it. */
static void o_tres(Out *o, const Job *j, int nodes, int billing, int typed)
{
    const Pool *pl = &pools[j->pool];
    int gpus = j->gpus * nodes / j->nodes, cpus = j->cpus * nodes / j->nodes;
    int64_t mem = j->mem_mib * nodes / j->nodes;
    if (billing) {
        o_str(o, "billing=");
        o_int(o, pl->gpu ? (int64_t)gpus * pl->billing_per_gpu : cpus);
        o_ch(o, ',');
    }
    o_str(o, "cpu=");
    o_int(o, cpus);
    if (pl->gpu) {
        if (typed) {
            o_str(o, ",gres/gpu:");
            o_str(o, pl->gpu);
            o_ch(o, '=');
            o_int(o, gpus);
        }
        o_str(o, ",gres/gpu=");
        o_int(o, gpus);
    }
    o_str(o, ",mem=");
    o_mem(o, mem);
    o_str(o, ",node=");
    o_int(o, nodes);
}

static const char *state_text(St s)
{
    switch (s) {
    case ST_COMPLETED: return "COMPLETED";
    case ST_FAILED: return "FAILED";
    case ST_CANCELLED: case ST_CANCELLED_PENDING: return "CANCELLED";
    case ST_TIMEOUT: return "TIMEOUT";
    case ST_OOM: return "OUT_OF_MEMORY";
    case ST_NODE_FAIL: return "NODE_FAIL";
    case ST_PREEMPTED: return "PREEMPTED";
    case ST_RUNNING: return "RUNNING";
    case ST_PENDING: return "PENDING";
    }
    return "UNKNOWN";
}

static void o_exit(Out *o, int code, int sig)
{
    o_int(o, code);
    o_ch(o, ':');
    o_int(o, sig);
}

/* The narrow shape's 24 fields, in order (JobName last). */
enum { F_JOBID, F_JOBIDRAW, F_CLUSTER, F_PARTITION, F_ACCOUNT, F_USER, F_STATE, F_EXIT,
       F_SUBMIT, F_ELIGIBLE, F_START, F_END, F_ELAPSED, F_ELAPSEDRAW, F_TIMELIMIT, F_NNODES,
       F_NCPUS, F_REQMEM, F_MAXRSS, F_REQTRES, F_ALLOCTRES, F_TRESUSAGE, F_NODELIST, F_JOBNAME,
       F_NARROW };

/* The wide shape's fields as narrow ones; F_GROUP and F_QOS are its own. */
enum { F_GROUP = F_NARROW, F_QOS };
static const int wide_order[] = {F_JOBID, F_JOBIDRAW, F_JOBNAME, F_USER, F_GROUP, F_ACCOUNT,
                                 F_PARTITION, F_QOS, F_STATE, F_EXIT, F_SUBMIT, F_ELIGIBLE,
                                 F_START, F_END, F_ELAPSED, F_ELAPSEDRAW, F_TIMELIMIT, F_NNODES,
                                 F_NCPUS, F_REQMEM, F_MAXRSS, F_REQTRES, F_ALLOCTRES, F_TRESUSAGE,
                                 F_NODELIST, F_CLUSTER};

/* End the row that began at o->buf[from]: a newline, after rewriting it in
 * the wide shape's order under --wide (the job row gets the user's Unix
 * group and a QOS, steps leave both empty as sacct does). JobName is the
 * narrow row's last field, so a '|' inside it stays inside it; moved to the
 * third column, where `sacct -P` would make the line unsplittable, its '|'
 * become '/'. */
static void o_end_row(Gen *g, const Job *j, size_t from, int is_step)
{
    Out *o = &g->out;
    if (!g->wide) {
        o_ch(o, '\n');
        return;
    }
    static char row[LINE_MAX_BYTES];
    size_t n = o->len - from, at[F_NARROW + 1];
    memcpy(row, o->buf + from, n);
    at[0] = 0;
    for (size_t i = 0, f = 1; i < n && f < F_NARROW; i++)
        if (row[i] == '|')
            at[f++] = i + 1;
    at[F_NARROW] = n + 1; /* one past JobName's end */
    o->len = from;
    for (size_t k = 0; k < sizeof wide_order / sizeof wide_order[0]; k++) {
        if (k)
            o_sep(o);
        int f = wide_order[k];
        if (f == F_GROUP) {
            if (!is_step) {
                o_str(o, "g-");
                o_topic(o, j->account);
            }
        } else if (f == F_QOS) {
            if (!is_step)
                o_str(o, parts[j->part].preemptible ? "low" : "normal");
        } else {
            size_t len = at[f + 1] - 1 - at[f];
            memcpy(o->buf + o->len, row + at[f], len);
            if (f == F_JOBNAME) /* not last: a '|' in it would split it */
                for (size_t c = 0; c < len; c++)
                    if (o->buf[o->len + c] == '|')
                        o->buf[o->len + c] = '/';
            o->len += len;
        }
    }
    o_ch(o, '\n');
}

static void emit_job_row(Gen *g, const Job *j)
{
    Out *o = &g->out;
    const User *u = &g->users[j->user];
    int64_t el = elapsed_of(g, j);
    o_line(o);
    size_t from = o->len;
    o_job_id(o, j);
    o_sep(o);
    o_int(o, j->raw);
    o_sep(o);
    o_str(o, g->cluster);
    o_sep(o);
    o_str(o, parts[j->part].name);
    o_sep(o);
    o_str(o, "lab-");
    o_topic(o, j->account);
    o_sep(o);
    o_str(o, u->name);
    o_sep(o);
    o_str(o, state_text(j->st));
    if (j->st == ST_CANCELLED || j->st == ST_CANCELLED_PENDING) {
        o_str(o, " by ");
        o_int(o, j->cancel_uid);
    }
    o_sep(o);
    o_exit(o, j->exit_code, j->exit_sig);
    o_sep(o);
    o_time(o, j->submit);
    o_sep(o);
    o_time(o, j->eligible);
    o_sep(o);
    o_time(o, j->start);
    o_sep(o);
    o_time(o, j->end);
    o_sep(o);
    o_dur(o, el);
    o_sep(o);
    o_int(o, el);
    o_sep(o);
    o_dur(o, j->limit);
    o_sep(o);
    o_int(o, j->nodes);
    o_sep(o);
    o_int(o, j->cpus);
    o_sep(o);
    o_mem(o, j->mem_mib);
    o_sep(o); /* MaxRSS: steps only */
    o_sep(o);
    o_tres(o, j, j->nodes, 1, j->typed_req);
    o_sep(o);
    if (started(j))
        o_tres(o, j, j->nodes, 1, 1);
    o_sep(o); /* TRESUsageInMax: steps only */
    o_sep(o);
    if (started(j))
        o_nodelist(o, j, j->nodes);
    else
        o_str(o, "None assigned");
    o_sep(o);
    o_str(o, j->name);
    o_end_row(g, j, from, 0);
    g->rows++;
}

typedef enum StepKind { SK_BATCH, SK_EXTERN, SK_SRUN } StepKind;

/* TRESUsageInMax of a step that did the work (work != 0) or only waited. */
static void o_usage(Gen *g, const Job *j, int64_t el, int nodes, int work, int64_t rss_kib)
{
    Out *o = &g->out;
    Rng *r = &g->rng;
    const Pool *pl = &pools[j->pool];
    o_str(o, "cpu=");
    o_dur(o, work ? (int64_t)((double)el * (0.3 + 0.7 * rng_unif(r))) : 0);
    o_str(o, ",energy=0,fs/disk=");
    o_int(o, work ? rng_range(r, 100000, 90000000000LL) : 6976);
    if (work && pl->gpu && g->gpumem) {
        o_str(o, ",gres/gpumem=");
        o_int(o, (int64_t)((double)pl->gpu_mem_mib * j->gpumem_frac));
        o_str(o, "M,gres/gpuutil=");
        o_int(o, (int64_t)j->util);
    }
    o_str(o, ",mem=");
    o_int(o, rss_kib);
    o_str(o, "K,pages=");
    o_int(o, work ? rng_range(r, 0, 400) : 0);
    o_str(o, ",vmem=");
    o_int(o, work ? rss_kib + rng_range(r, 100000, 30000000) : 2920);
    o_ch(o, 'K');
    (void)nodes;
}

static void emit_step(Gen *g, const Job *j, StepKind k)
{
    static const char *const suffix[] = {"batch", "extern", "0"};
    Out *o = &g->out;
    Rng *r = &g->rng;
    int nodes = k == SK_BATCH ? 1 : j->nodes;
    int64_t el = elapsed_of(g, j);
    int work = k == SK_SRUN || (k == SK_BATCH && !j->srun_step);
    const char *st = "COMPLETED";
    int code = 0, sig = 0;
    if (j->st == ST_RUNNING) {
        st = "RUNNING";
    } else if (k != SK_EXTERN || j->st == ST_OOM) {
        switch (j->st) {
        case ST_FAILED: st = "FAILED"; code = j->exit_code; break;
        case ST_OOM: st = "OUT_OF_MEMORY"; sig = 125; break;
        case ST_CANCELLED: case ST_TIMEOUT: case ST_PREEMPTED: case ST_NODE_FAIL:
            st = "CANCELLED"; sig = 15; break;
        default: break;
        }
        if (k == SK_SRUN && j->st == ST_FAILED) {
            st = "FAILED";
            code = j->exit_code;
        }
    }
    o_line(o);
    size_t from = o->len;
    o_job_id(o, j);
    o_ch(o, '.');
    o_str(o, suffix[k]);
    o_sep(o);
    o_int(o, j->raw);
    o_ch(o, '.');
    o_str(o, suffix[k]);
    o_sep(o);
    o_str(o, g->cluster);
    o_sep(o); /* Partition */
    o_sep(o);
    o_str(o, "lab-");
    o_topic(o, j->account);
    o_sep(o); /* User */
    o_sep(o);
    o_str(o, st);
    o_sep(o);
    o_exit(o, code, sig);
    for (int t = 0; t < 3; t++) { /* Submit, Eligible, Start */
        o_sep(o);
        o_time(o, j->start);
    }
    o_sep(o);
    o_time(o, j->end);
    o_sep(o);
    o_dur(o, el);
    o_sep(o);
    o_int(o, el);
    o_sep(o); /* Timelimit */
    o_sep(o);
    o_int(o, nodes);
    o_sep(o);
    o_int(o, j->cpus * nodes / j->nodes);
    o_sep(o); /* ReqMem */
    o_sep(o);
    int64_t rss_kib = 0;
    if (j->st != ST_RUNNING) {
        double per_node = (double)j->mem_mib / j->nodes * 1024.0;
        rss_kib = work ? (int64_t)(per_node * j->rss_frac) : rng_range(r, 1200, 9000);
        if (work && j->st == ST_OOM)
            rss_kib = (int64_t)per_node + rng_range(r, 0, 4096);
        o_int(o, rss_kib);
        o_ch(o, 'K');
    }
    o_sep(o); /* ReqTRES */
    o_sep(o);
    o_tres(o, j, nodes, k != SK_BATCH, 1);
    o_sep(o);
    if (j->st != ST_RUNNING)
        o_usage(g, j, el, nodes, work, rss_kib);
    o_sep(o);
    o_nodelist(o, j, nodes);
    o_sep(o);
    if (k == SK_SRUN)
        o_str(o, parts[j->part].interactive ? "bash" : (j->nodes > 1 ? "torchrun" : "python"));
    else
        o_str(o, suffix[k]);
    o_end_row(g, j, from, 1);
    g->rows++;
}

static void emit_attempt(Gen *g, const Job *j)
{
    emit_job_row(g, j);
    if (!g->steps || !started(j))
        return;
    if (!parts[j->part].interactive)
        emit_step(g, j, SK_BATCH);
    emit_step(g, j, SK_EXTERN);
    if (j->srun_step || parts[j->part].interactive)
        emit_step(g, j, SK_SRUN);
}

/* Emit one attempt; a preempted or node-failed one is requeued. */
static void process(Gen *g, Job *j)
{
    run_attempt(g, j);
    emit_attempt(g, j);
    if (j->st == ST_PREEMPTED || j->st == ST_NODE_FAIL) {
        Job next = *j;
        next.attempt++;
        next.submit = j->end;
        next.want_s = j->want_s;
        heap_push(&g->requeue, &next);
    }
}

static void drain_requeued(Gen *g, int64_t upto)
{
    Job j;
    while (g->requeue.n && g->requeue.a[0].submit <= upto) {
        heap_pop(&g->requeue, &j);
        process(g, &j);
    }
}

static void generate(Gen *g, int64_t njobs)
{
    double gap = (double)(g->now - g->t0) / (double)njobs;
    int64_t done = 0;
    while (done < njobs) {
        /* Stratified arrivals: the period is filled to its end, so the last
         * jobs are still running or pending "now". */
        int64_t submit = g->t0 + (int64_t)(((double)done + rng_unif(&g->rng)) * gap);
        drain_requeued(g, submit);
        Job j;
        new_job(g, &j, submit);
        int ntasks = 1;
        if (!parts[j.part].interactive && rng_unif(&g->rng) < 0.04)
            ntasks = (int)rng_range(&g->rng, 2, 40);
        if (ntasks > njobs - done)
            ntasks = (int)(njobs - done);
        if (ntasks == 1) {
            j.raw = g->next_id++;
            process(g, &j);
        } else {
            int64_t base = g->next_id++;
            for (int k = 1; k <= ntasks; k++) {
                Job task = j;
                task.array_base = base;
                task.task = k;
                task.raw = k == ntasks ? base : g->next_id++; /* the last task keeps the id */
                task.want_s = (int64_t)((double)j.want_s * (0.7 + 0.6 * rng_unif(&g->rng))) + 1;
                process(g, &task);
            }
        }
        done += ntasks;
        g->next_id += rng_range(&g->rng, 0, 2); /* ids of jobs on other clusters, or lost */
    }
    drain_requeued(g, INT64_MAX);
}

/* ----------------------------------------------------------------- main */

static void usage(FILE *f)
{
    fprintf(f, "usage: gen_sacct --jobs N --seed S [--steps] [--cluster NAME] [--days D]\n"
               "                 [--start YYYY-MM-DD] [--no-gpumem] [--wide] [--users U]\n"
               "                 [--accounts A] [--first-id ID] > file\n"
               "Writes a realistic `sacct -a -D -P` file of N jobs (header included).\n"
               "--steps adds .batch/.extern (and some .0) step rows, about 3 lines per job.\n"
               "--wide writes the 26-field export shape (JobID, JobIDRaw, JobName, User,\n"
               "Group, Account, Partition, QOS, State, ..., NodeList, Cluster) instead of\n"
               "the 24-field one (JobName last); the same jobs either way (a '|' in a\n"
               "JobName becomes '/' there: not last, it would split the line).\n"
               "--users, --accounts: the site's size (240 users in 34 accounts); the issue 31\n"
               "site shape is --wide --steps --users 1000 --accounts 60 --days 1461.\n"
               "--first-id: the first JobIDRaw (for a later file appended to an earlier one).\n");
}

static int parse_i64(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < 0)
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    static Gen g;
    int64_t njobs = -1, seed = 1, days = -1, nusers = NUSERS, naccounts = NACCOUNTS;
    int64_t first_id = -1;
    int y = 2023, m = 1, d = 1;
    g.cluster = "vega";
    g.gpumem = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--steps") == 0) {
            g.steps = 1;
        } else if (strcmp(a, "--wide") == 0) {
            g.wide = 1;
        } else if (strcmp(a, "--no-gpumem") == 0) {
            g.gpumem = 0;
        } else if (v && strcmp(a, "--jobs") == 0 && parse_i64(v, &njobs) == 0) {
            i++;
        } else if (v && strcmp(a, "--seed") == 0 && parse_i64(v, &seed) == 0) {
            i++;
        } else if (v && strcmp(a, "--users") == 0 && parse_i64(v, &nusers) == 0 &&
                   nusers >= 1 && nusers <= MAX_USERS) {
            i++;
        } else if (v && strcmp(a, "--accounts") == 0 && parse_i64(v, &naccounts) == 0 &&
                   naccounts >= 1 && naccounts <= MAX_ACCOUNTS) {
            i++;
        } else if (v && strcmp(a, "--first-id") == 0 && parse_i64(v, &first_id) == 0) {
            i++;
        } else if (v && strcmp(a, "--days") == 0 && parse_i64(v, &days) == 0 && days > 0) {
            i++;
        } else if (v && strcmp(a, "--cluster") == 0 && v[0]) {
            g.cluster = v;
            i++;
        } else if (v && strcmp(a, "--start") == 0 && sscanf(v, "%d-%d-%d", &y, &m, &d) == 3 &&
                   y >= 1970 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
            i++;
        } else {
            fprintf(stderr, "gen_sacct: bad argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (njobs < 0) {
        usage(stderr);
        return 2;
    }
    if (days < 0) /* about 1500 jobs a day, between a month and two years */
        days = njobs / 1500 < 30 ? 30 : (njobs / 1500 > 730 ? 730 : njobs / 1500);
    g.t0 = days_from_civil(y, m, d) * 86400;
    g.now = g.t0 + days * 86400;
    g.next_id = first_id >= 0 ? first_id : 1000000 + (int64_t)(seed % 1000) * 1000;
    g.nusers = (int)nusers;
    g.naccounts = (int)naccounts;
    rng_seed(&g.rng, (uint64_t)seed);
    g.out.buf = malloc(OUT_CAP);
    if (!g.out.buf)
        die("out of memory");
    setup_users(&g);
    if (g.wide)
        o_str(&g.out, "JobID|JobIDRaw|JobName|User|Group|Account|Partition|QOS|State|ExitCode|"
                      "Submit|Eligible|Start|End|Elapsed|ElapsedRaw|Timelimit|NNodes|NCPUS|"
                      "ReqMem|MaxRSS|ReqTRES|AllocTRES|TRESUsageInMax|NodeList|Cluster\n");
    else
        o_str(&g.out, "JobID|JobIDRaw|Cluster|Partition|Account|User|State|ExitCode|Submit|"
                      "Eligible|Start|End|Elapsed|ElapsedRaw|Timelimit|NNodes|NCPUS|ReqMem|"
                      "MaxRSS|ReqTRES|AllocTRES|TRESUsageInMax|NodeList|JobName\n");
    generate(&g, njobs);
    o_flush(&g.out);
    if (fflush(stdout) != 0)
        die("write error");
    free(g.out.buf);
    free(g.requeue.a);
    return 0;
}
