#ifndef SIMULATE_H
#define SIMULATE_H
/* simulate: the queue simulation (core/sim) fed from the store: the jobs
 * that ran and the fleet they ran on, and the replay of the record on it.
 *
 * The fleet: the inventory's rows, one pool each (a row's to_date is its
 * last day in service); a cluster the inventory does not name gets one
 * pool of the most units its recorded jobs held at once ("peak"), any
 * memory, speed 1. A cluster where some job holds a GPU counts GPUs (jobs
 * without one are left out: they wait for no GPU); one where none does
 * (a pre-GPU log) counts processors. A job's reference speed is the
 * inventory's speed for its recorded GPU model on its cluster (1 when
 * unknown). */

#include <stddef.h>
#include <stdint.h>

#include "core/cp.h"
#include "core/sim.h"
#include "core/sim_stats.h"
#include "data/store/store_sim.h"

typedef struct Store Store;

#define SIMULATE_WARMUP_S (30 * 86400) /* jobs simulated before the window */
#define SIMULATE_POLICY_SHARE 0.5      /* idle share from which waits are policy */
/* A backfill depth as callers give it: 0 the default (SIM_BF_DEPTH),
 * SIMULATE_BF_ALL the whole queue, else that many jobs. */
#define SIMULATE_BF_ALL SIZE_MAX
size_t simulate_bf_depth(size_t given); /* the depth core/sim takes (0: all) */

/* What a replay runs: the window [from, to) of submission, the fleet as
 * at fleet_at (SIM_NEVER: the recorded one), the backfill depth (as
 * simulate_bf_depth takes it), the order (SIMULATE_ORDER_*), the
 * placement (SIMULATE_PLACE_*), the scenario of the fair-share policy
 * (NULL: base) and the partitions' priority tiers: tiers[0 .. ntiers),
 * partition names, the highest first (slurm.conf's PriorityTier, which
 * sacct does not record); a job of another partition, or none, ranks
 * after them all; ntiers 0: no tiers. Borrowed. */
typedef struct SimReplayOpts {
    int64_t from, to, fleet_at;
    size_t bf_depth;
    int order, placement;
    const char *scenario;
    const char *const *tiers;
    size_t ntiers;
} SimReplayOpts;

typedef struct SimWorld {
    SimJob *jobs;
    size_t n;
    SimPool *pools;
    size_t np;
    char **pool_model;   /* per pool: the model ("peak" when inferred); owned */
    StoreSimJobs raw;    /* the names: raw.clusters, raw.groups */
    unsigned char *cpu;  /* per cluster: 1 when processors are the units */
    size_t skipped;      /* jobs left out: no units */
    int gpu_inventory;   /* a cluster with GPU jobs has a pool from the inventory */
    int32_t *pin;        /* per job: the model it stays on (SimPool.model), 0 any; NULL:
                            none pinned (core/sim's SimHow.pin); owned */
    int32_t *tier;       /* per job: its partition's tier (SimReplayOpts.tiers; unlisted
                            ntiers), NULL: no tiers; owned */
} SimWorld;

/* The jobs submitted in [from, to) and the recorded fleet; with o's
 * placement SIMULATE_PLACE_RECORDED each job's recorded model in w->pin
 * (then simulate_place), with o's tiers each job's in w->tier. 0, or -1
 * with err. */
int simulate_load(Store *st, int64_t from, int64_t to, const SimReplayOpts *o, SimWorld *w,
                  CpErr *err);
void simulate_world_free(SimWorld *w);

/* 1 when today's fleet is known: the inventory has a pool on a cluster with
 * GPU jobs, or no cluster has any (processors stand in with their recorded
 * peak). 0: GPU jobs but no inventory for them, so a queue simulated on
 * "today's fleet" would run on the recorded peak, a guess; simulate_next
 * refuses (SIMULATE_NO_INVENTORY), the replay of recorded jobs goes on. */
int simulate_fleet_known(const SimWorld *w);

/* Why next year is not simulated without an inventory, naming the command
 * that adds it (#33): `capplan simulate`, project, the report, the dashboard. */
#define SIMULATE_NO_INVENTORY                                                                  \
    "no inventory: today's fleet is unknown, so next year's queue cannot be simulated on it "  \
    "(capplan import inventory FILE adds it)"

/* The first submit and one past the last of the jobs that ran, or -1. */
int simulate_span(Store *st, int64_t *first, int64_t *end, CpErr *err);

/* The jobs of the last 12 months before the span's end that the simulation
 * would draw from (a count, nothing read): what `project` weighs before
 * running the simulation. 0, or -1 with err. */
int simulate_last_year_jobs(Store *st, int64_t *n, CpErr *err);

/* The queue order (#33): FCFS (the default: on the demo's last year it
 * reproduces the recorded waits better, docs/simulate.md) or fair share,
 * which is FCFS where the database has no allocations. */
enum { SIMULATE_ORDER_FCFS = 0, SIMULATE_ORDER_FAIRSHARE };

/* The fair-share order's inputs (core/sim's SimFair). A group's share of
 * a calendar year is its allocation (GPU-hours) over the GPU-hours the
 * world's pools give that year (processor-hours for a CPU-only log);
 * the groups without an allocation split what the allocations leave of
 * that capacity evenly (none when they take it all), so a group nobody
 * allocated ranks like one whose allocation is the rest's average: it
 * neither jumps the queue nor starves. Allocated groups that ran no job
 * still take their part. Years outside the allocations' take the nearest
 * (next year keeps this year's); a year inside without any allocation
 * gives every group the same share. Half-life: the scenario's
 * policy.half_life_days (14). */
typedef struct SimFairSpec {
    SimFair fair;
    double *share; /* owned */
    int on;        /* 0: no allocations */
} SimFairSpec;

/* Fill f for w's groups and pools from the allocations (scenario's
 * policy.*; NULL base). f->on 0 when there are none. 0, or -1 with err. */
int simulate_fair_load(Store *st, const char *scenario, const SimWorld *w, SimFairSpec *f,
                       CpErr *err);
/* What core/sim takes: NULL when off (FCFS). */
const SimFair *simulate_fair_of(const SimFairSpec *f);
void simulate_fair_free(SimFairSpec *f);

/* Where a job may run (#33): any pool of its cluster with enough memory,
 * or only pools of the GPU model it was recorded on (a typed request
 * gres/gpu:MODEL or a partition per model pins a job in Slurm). */
enum { SIMULATE_PLACE_ANY = 0, SIMULATE_PLACE_RECORDED };
/* The replay's default (docs/simulate.md, measured): on the recorded
 * fleet (fleet_at SIM_NEVER) "recorded"; on another fleet "any" (the
 * models the jobs chose were the old fleet's). */
int simulate_place_default(int64_t fleet_at);

/* Apply the placement to w's jobs (after any change of fleet): "any"
 * unpins every job (w->pin NULL); "recorded" keeps a job on its recorded
 * model where a pool of that model on its cluster could ever hold it
 * (units and memory), else unpins it (a model the fleet no longer has, an
 * unknown one). Returns the jobs pinned. data/plan/simulate_place.c. */
size_t simulate_place(SimWorld *w, int placement);
/* "any" / "recorded" -> SIMULATE_PLACE_*, -1 when neither. */
int simulate_place_parse(const char *s);
const char *simulate_place_name(int placement);

typedef struct SimReplay {
    SimWorld w;
    SimFairSpec fair;      /* the order simulated: fair.on 1 fair share, 0 FCFS */
    SimOut out;
    SimSummary sum;        /* the window */
    SimWaits plus10;       /* the window's simulated waits with every pool +10 % (rounded up) */
    int64_t from, to;
    double seconds;        /* not set here: the caller's clock */
    double sim_seconds;    /* sim_run alone, on the recorded fleet */
    int policy;            /* 1: most recorded waiting passed beside idle capacity */
    size_t bf_depth;       /* the backfill depth simulated (core/sim's: 0 all) */
    int placement;         /* SIMULATE_PLACE_* */
    size_t pinned;         /* jobs pinned to their recorded model */
    const char *const *tiers; /* the partitions' tiers simulated, the highest first
                                 (borrowed from the options); ntiers 0: none */
    size_t ntiers;
} SimReplay;


/* Replay the jobs submitted in [from, to) (and the SIMULATE_WARMUP_S
 * before it) on the recorded fleet. Free with simulate_replay_free. */
int simulate_replay(Store *st, int64_t from, int64_t to, SimReplay *r, CpErr *err);
/* The same on the fleet as it stood at fleet_at (epoch s; SIM_NEVER: the
 * recorded fleet): the pools in service then, in service throughout (the
 * natural experiment: a year before a capacity change replayed on the
 * fleet after it), with backfill depth bf_depth (as simulate_bf_depth). */
int simulate_replay_at(Store *st, int64_t from, int64_t to, int64_t fleet_at, size_t bf_depth,
                       SimReplay *r, CpErr *err);
/* The same with the queue order (SIMULATE_ORDER_*; fair share with
 * scenario's policy.*, NULL base): SIMULATE_ORDER_FAIRSHARE without
 * allocations is FCFS (r->fair.on 0). Placement "any" (next year's). */
int simulate_replay_order(Store *st, int64_t from, int64_t to, int64_t fleet_at, size_t bf_depth,
                          int order, const char *scenario, SimReplay *r, CpErr *err);
/* The same with every option (the placement too). */
int simulate_replay_opts(Store *st, const SimReplayOpts *o, SimReplay *r, CpErr *err);
void simulate_replay_free(SimReplay *r);

/* Seconds on a monotonic clock (for timings). */
double simulate_clock(void);

/* The idle share of recorded waiting, 0..1 (0 when nobody waited). */
double simulate_idle_share(double wait_h, double idle_wait_h);

#endif
