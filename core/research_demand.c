#include "core/research_demand.h"

#include <stdlib.h>
#include <string.h>

#include "core/cp.h"
#include "core/profiles.h"

/* A value and its weight, for a weighted median. */
typedef struct Wv {
    double v, w;
} Wv;

static int cmp_wv(const void *a, const void *b)
{
    const Wv *x = a, *y = b;
    return x->v < y->v ? -1 : x->v > y->v;
}

/* The smallest value holding at least half the weight (v sorted here). */
static double wmedian(Wv *v, int n)
{
    double total = 0, acc = 0;
    if (n == 0)
        return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_wv);
    for (int i = 0; i < n; i++)
        total += v[i].w;
    for (int i = 0; i < n; i++) {
        acc += v[i].w;
        if (acc >= total / 2)
            return v[i].v;
    }
    return v[n - 1].v;
}

static int counts(const RsNeedIn *p, double min_hours)
{
    return p->cluster >= 0 && p->gpu_hours > 0 && p->gpu_hours >= min_hours;
}

static void usual(const RsNeedIn *in, int n, int c, double min_hours, ResearchNeed *u, Wv *tmp)
{
    double cls[MEMCLASS_COUNT] = {0}, known = 0, multi = 0;
    int ncls[MEMCLASS_COUNT] = {0}, nknown = 0, nmulti = 0;
    int m = 0;
    memset(u, 0, sizeof *u);
    u->mem_class = -1;
    for (int i = 0; i < n; i++) {
        if (in[i].cluster != c || !counts(&in[i], min_hours))
            continue;
        double w = in[i].gpu_hours;
        u->members++;
        u->hours += w;
        int mc = profiles_mem_class(in[i].mem_gib);
        if (mc != MEMCLASS_UNKNOWN) {
            cls[mc] += w;
            known += w;
            ncls[mc]++;
            nknown++;
        }
        if (in[i].gpus >= 2) {
            multi += w;
            nmulti++;
        }
        tmp[m++] = (Wv){in[i].gpus, w};
    }
    if (u->members == 0)
        return;
    u->gpus = wmedian(tmp, m);
    m = 0;
    for (int i = 0; i < n; i++)
        if (in[i].cluster == c && counts(&in[i], min_hours))
            tmp[m++] = (Wv){in[i].conc, in[i].gpu_hours};
    u->conc = wmedian(tmp, m);
    int best = -1;
    for (int k = 0; k < MEMCLASS_UNKNOWN; k++)
        if (cls[k] > 0 && (best < 0 || cls[k] > cls[best]))
            best = k;
    u->mem_share = best >= 0 && known > 0 ? cls[best] / known : 0;
    u->multi_share = multi / u->hours;
    /* firm: enough members, most of the GPU-hours and half the members
     * or more (a few heavy users do not make a line's usual need) */
    int firm = u->members >= RESEARCH_FIRM_MIN;
    if (firm && best >= 0 && u->mem_share >= RESEARCH_FIRM && 2 * ncls[best] >= nknown)
        u->mem_class = best;
    u->multi = firm && u->multi_share >= RESEARCH_FIRM && 2 * nmulti >= u->members;
}

/* Flagged people by stake, descending (ties: more GPU-hours, then index). */
typedef struct Order {
    const RsNeedIn *in;
    const RsNeedOut *out;
} Order;

static int cmp_stake(const void *a, const void *b, void *arg)
{
    const Order *o = arg;
    int x = *(const int *)a, y = *(const int *)b;
    if (o->out[x].stake != o->out[y].stake)
        return o->out[x].stake > o->out[y].stake ? -1 : 1;
    if (o->in[x].gpu_hours != o->in[y].gpu_hours)
        return o->in[x].gpu_hours > o->in[y].gpu_hours ? -1 : 1;
    return x - y;
}

int research_demand(const RsNeedIn *in, int n, int k, double min_hours, int per_group,
                    RsNeedOut *out, ResearchNeed *need, int *shown)
{
    Wv *tmp = xcalloc((size_t)(n > 0 ? n : 1), sizeof *tmp);
    for (int c = 0; c < k; c++)
        usual(in, n, c, min_hours, &need[c], tmp);
    free(tmp);
    int *idx = xcalloc((size_t)(n > 0 ? n : 1), sizeof *idx);
    int nflag = 0, maxg = 0;
    for (int i = 0; i < n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        if (in[i].group + 1 > maxg)
            maxg = in[i].group + 1;
        if (!counts(&in[i], min_hours) || in[i].cluster >= k)
            continue;
        ResearchNeed *u = &need[in[i].cluster];
        int mc = profiles_mem_class(in[i].mem_gib);
        out[i].below_mem = u->mem_class >= 0 && mc != MEMCLASS_UNKNOWN && mc < u->mem_class;
        out[i].below_gpus = u->multi && 2 * in[i].gpus < u->gpus;
        if (out[i].below_mem)
            out[i].stake = u->conc > in[i].conc ? u->conc : in[i].conc;
        else if (out[i].below_gpus && u->conc > in[i].conc)
            out[i].stake = u->conc - in[i].conc;
        if (out[i].stake <= 0)
            continue;
        u->below++;
        u->budget += out[i].stake;
        idx[nflag++] = i;
    }
    Order ord = {in, out};
    qsort_r(idx, (size_t)nflag, sizeof *idx, cmp_stake, &ord);
    int *per = xcalloc((size_t)(maxg > 0 ? maxg : 1), sizeof *per), rank = 0;
    for (int j = 0; j < nflag; j++) {
        int i = idx[j], g = in[i].group;
        if (per_group > 0 && g >= 0 && per[g] >= per_group)
            continue;
        if (g >= 0)
            per[g]++;
        out[i].rank = ++rank;
    }
    free(per);
    free(idx);
    if (shown)
        *shown = rank;
    return nflag;
}
