#ifndef FORECAST_H
#define FORECAST_H
/* forecast: the forecasters that compete on a site's own history (issue
 * 28, docs/planning.md "Which forecaster"), how each did at every origin,
 * the one chosen at a month from what was known then, and the ranges of
 * its out-of-sample errors.
 *
 * The history is each group's mean use per calendar month (GPU-eq, or
 * CPUs), months 0..T-1. A forecast made at month L (the first day of month
 * L, "the cut") sees months [0, L) only and says each group's mean use over
 * the next 12 months (one level: the forecasters here are flat over the
 * year), and the institute's total (the groups plus new groups).
 *
 * Candidates (FcCand, in this order):
 *   naive            each group's last 12 months (the months that exist);
 *   last 3 months    each group's last 3 months (x 4 for a year's use);
 *   smoothing h      exponential smoothing of each group's monthly use,
 *                    weights 0.5^(age / h), h = 1..12 months;
 *   model h          the member-level model v2 at half-life h (1, 3, 6, 12
 *                    months), computed by the caller at each origin;
 *   shrunk h         half the model's, half smoothing's at the same h;
 *   trend h          smoothing h x (1 + the institute's trend): the total's
 *                    last 6 months over the 6 before, carried 9 months on
 *                    (to the middle of the year ahead), halved, capped at
 *                    +-50 % (0 with fewer than 12 months);
 *   damped h         each group's damped-trend (Holt) smoothing: level at
 *                    alpha = 1 - 0.5^(1 / h), trend at FC_DAMP_BETA, damped
 *                    by FC_DAMP_PHI a month, the mean of its next 12 months
 *                    (h = 1, 2, 3, 6; at least 0);
 *   combination      per group, smoothing 2, last 3 months and the model at
 *                    1 month weighted by the inverse of each one's mean
 *                    |error| for that group over the record at the cut
 *                    (the same origins fc_choose reads, earlier cuts only);
 *                    equal weights with fewer than FC_MIN_RECORD origins;
 *   combination top  the same over the 3 candidates (of those above) with
 *                    the best mean per-group WAPE over the record at the
 *                    cut; without a record, the combination's parts;
 *   per group        each group the candidate (of those before the
 *                    combinations) with its least mean |error| for that
 *                    group over the record at the cut; without a record,
 *                    FC_DEFAULT's.
 * Every candidate but the model adds new groups to its total: the use of
 * the groups first seen in the last W <= 6 months (mean over them) x 12 / W
 * (arrivals at the recent rate, each present half of the year on average),
 * W = the months after the first 6 of the data (none before).
 *
 * The record at month L: every origin o (a month with a forecast) with at
 * least FC_MIN_SCORED months between o and L, scored on [o, min(o + 12, L))
 * only: nothing at or after L is read; when FC_MIN_RECORD of them were
 * scored on 12 full months, those alone (the horizon the forecast is for).
 * The chosen forecaster is the best
 * mean per-group WAPE over that record (then the best mean |total error|);
 * with fewer than FC_MIN_RECORD origins, FC_DEFAULT. Its ranges: centred
 * on the forecast, +-the 80th percentile of |log(actual / forecast)| over
 * the record's origins scored on 12 full months when there are
 * FC_MIN_RECORD of them, else over the whole record (an origin scored on
 * k < 12 months counting its error x 12 / k); per group pooled by the
 * group's share of the forecast total (FC_NSIZE classes: < 2 %, 2-10 %,
 * >= 10 %).
 *
 * Pure computation over caller-owned arrays: no I/O. */

#include <stdint.h>

#include "core/demand.h"

#define FC_NSMOOTH 12
enum {
    FC_NAIVE = 0,
    FC_LAST3 = 1,
    FC_SMOOTH0 = 2,                      /* + h - 1, h = 1..12 */
    FC_MODEL0 = FC_SMOOTH0 + FC_NSMOOTH, /* + half-life index (dem_halflives) */
    FC_SHRUNK0 = FC_MODEL0 + DEM_NHALF,
    FC_TREND0 = FC_SHRUNK0 + DEM_NHALF, /* + h - 1: smoothing h x the institute trend */
    FC_DAMP0 = FC_TREND0 + FC_NSMOOTH,  /* + index in fc_damp_half: damped trend */
    FC_COMB = FC_DAMP0 + 4,              /* the combination by past errors */
    FC_COMBTOP = FC_COMB + 1,            /* the same over the record's 3 best */
    FC_PERGROUP = FC_COMBTOP + 1,        /* each group its own best candidate */
    FC_NCAND = FC_PERGROUP + 1
};
#define FC_NDAMP 4
#define FC_NCHOOSE FC_DAMP0 /* candidates fc_choose picks from: the damped trends, the
                               combinations and each group's own best are scored, not chosen
                               (with the first two in the choice
                               the 20,000-job demo's per-group WAPE went 48.7 -> 48.9 %, the
                               full demo's stayed 29.1 %, OSC's is the default's:
                               docs/planning.md "Forecasters x logs") */
#define FC_MIN_SCORED 6  /* months an origin needs scored to enter a record (3 tried: worse
                            on both test logs, docs/planning.md) */
#define FC_MIN_RECORD 3  /* origins a record needs to choose (else FC_DEFAULT) */
#define FC_MIN_YEAR2 12  /* origins with 24 months scored year 2's range needs (a year of
                            cuts; with 3 to 5, on the demo, its spread came out narrower
                            than year 1's) */
#define FC_DEFAULT FC_MODEL0 /* the member-level model, half-life 1 month: at the cuts
                              where the default applies (fewer than 3 earlier ones), the
                              best worst case over the test logs (OSC, the demo) of per-group
                              WAPE / naive's, groups capped at FC_LEVEL_CAP (docs/planning.md;
                              before the cap: the model shrunk, 1 month). OSC's cuts all fall
                              here: its figures are in-sample for this choice */
#define FC_DEFAULT_NOMODEL (FC_SMOOTH0 + 1) /* without the model: smoothing, 2 months (the
                                               next by the same rule) */
#define FC_LEVEL_CAP 3.0 /* no group's forecast above 3 x its last 12 months' use, any
                            candidate but naive and last 3 (a group with none is not capped; the model's total
                            loses what its groups lose): one arrival's burst x maturation
                            (issue 28) */
#define FC_NSIZE 3
#define FC_NEW_MONTHS 6  /* W: months whose new groups give the new-groups term */

#define FC_DAMP_BETA 0.2 /* the damped trend's trend smoothing */
#define FC_DAMP_PHI 0.8  /* its damping a month (the year's mean keeps 0.33 of a month's trend x 12) */
extern const int fc_damp_half[FC_NDAMP]; /* 1, 2, 3, 6 */

/* Candidate k's half-life in months (the model's member rates nearest it;
 * 0 for naive and last 3, 1 for the combination: its model's). */
double fc_cand_halflife(int k);
/* "smoothing, half-life 2 months" into buf; a short key ("smooth2") into key
 * (either may be NULL). */
void fc_cand_name(int k, char *buf, int n);
void fc_cand_key(int k, char *buf, int n);
/* The candidate named by a key ("naive", "last3", "smooth2", "model6",
 * "shrunk3"), -1 none. */
int fc_cand_by_key(const char *key);
/* 1 when candidate k needs the model's forecasts. */
int fc_cand_uses_model(int k);

typedef struct FcData {
    int G, T;                    /* groups; months of history */
    const double *use;           /* G x T: use[g * T + m], mean use of month m */
    int n;                       /* origins */
    const int *om;               /* n: the month of each origin (1..T) */
    const double *model;         /* n x DEM_NHALF x (G + 1): the model's forecast at each
                                    origin per group, and its total; NULL: no model */
    const unsigned char *apart;  /* n: 1 when the origin's following year saw capacity
                                    change by more than 25 % (left out); NULL none */
    int first_cut;               /* the backtest scores origins from this month on (6 months
                                    of data before); earlier ones only enter records */
    const double *hours;         /* T: the hours of each month (means over months weigh
                                    them by it); NULL: equal */
    int one;                     /* an origin the backtest scores alone, on what follows it
                                    (fewer than 12 months allowed); -1 every cut */
} FcData;

typedef struct FcTable FcTable;
/* Every candidate's forecast at every origin (borrows d's arrays: keep
 * them until fc_table_free). */
FcTable *fc_table_new(const FcData *d);
void fc_table_free(FcTable *t);

/* Candidate k's forecast at month L (history [0, L)) into out[G + 1] (the
 * groups, then the total); model: DEM_NHALF x (G + 1) of the model's at L,
 * NULL: model candidates forecast nothing. */
void fc_forecast(const FcTable *t, int k, int L, const double *model, double *out);
/* Candidate k's forecast at origin o (G + 1 values), borrowed. */
const double *fc_table_at(const FcTable *t, int o, int k);
/* The mean of group g's use over months [a, b) (clipped to the history). */
double fc_mean(const FcTable *t, int g, int a, int b);

typedef struct FcRange {
    int n;                       /* errors behind the institute's range (0: not calibrated) */
    int full;                    /* 1: from origins scored on 12 full months */
    double q10, q90;             /* of log(actual / forecast), the total */
    int gn[FC_NSIZE];
    double gq10[FC_NSIZE], gq90[FC_NSIZE]; /* per size class of group */
    /* year 2, measured (issue 28): the institute total's log(actual over the
     * 12 months after the first 12 / forecast) at the origins with 24 months
     * scored before L */
    int n2;                      /* such origins (0: fewer than FC_MIN_YEAR2) */
    double q10_2, q90_2;
    double widen2;               /* the p10-p90 spread of year 2's errors over year 1's, at
                                    least 1: how much wider year 2's range is than year 1's;
                                    0 when not measured */
} FcRange;

/* The institute's new groups in a total: at the recent rate (forecast.h
 * above), or the model's (its total less its groups, half-life 6 months). */
enum { FC_NG_RECENT = 0, FC_NG_MODEL = 1 };
#define FC_NG_DEFAULT FC_NG_RECENT /* the default forecaster's new groups */

typedef struct FcChoice {
    int cand;                    /* the chosen candidate */
    int ng;                      /* its new groups (FC_NG_*): the better total error over the
                                    record, for a candidate that is not the model */
    int nrec;                    /* origins behind the choice (< FC_MIN_RECORD: default) */
    double wape, mae;            /* its record */
    FcRange range;
} FcChoice;

/* The choice at month L (what was known on its first day). */
void fc_choose(const FcTable *t, int L, FcChoice *out);
/* Candidate k's ranges at month L. */
void fc_ranges(const FcTable *t, int k, int ng, int L, FcRange *out);
/* A forecast's total (f: G + 1 values) with new groups ng, the model's
 * forecast at the same month model (DEM_NHALF x (G + 1), may be NULL). */
double fc_total_with(const FcTable *t, const double *f, const double *model, int ng);
/* The size class of a group forecast f in a total tot. */
int fc_size_class(double f, double tot);
/* The range [f e^q10, f e^q90] of group forecast f (class by tot), or of
 * the total (g < 0); lo = hi = NAN when not calibrated. */
void fc_range_of(const FcRange *r, double f, double tot, int group, double *lo, double *hi);

/* The backtest: at every origin with 12 months scored before T_end, the
 * forecaster chosen then, scored; and every candidate at every such origin
 * (fixed, with its own ranges from earlier origins). */
typedef struct FcCut {
    int o;                       /* origin index */
    int apart;
    FcChoice choice;
    double wape, actual, forecast, err; /* the chosen forecaster's */
    int calibrated, cover_total; /* its total inside its range */
    double cover_groups;         /* share of the use inside the groups' ranges */
    double cand_wape[FC_NCAND], cand_err[FC_NCAND]; /* every candidate at this cut (0: none) */
} FcCut;

typedef struct FcRec {
    int n;                       /* cuts scored */
    double wape, mae, bias;      /* mean per-group WAPE, mean |total error|, mean error */
    int ncal, cover;             /* cuts with a range; of them, total inside */
    double cover_groups;         /* mean use-weighted group coverage over ncal */
} FcRec;

/* cuts (n entries, caller-owned) and rec[FC_NCAND] + the chosen's record
 * (rec[FC_NCAND]); returns the number of cuts. */
int fc_backtest(const FcTable *t, int T_end, FcCut *cuts, FcRec *rec);

#endif
