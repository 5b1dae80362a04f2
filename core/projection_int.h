#ifndef PROJECTION_INT_H
#define PROJECTION_INT_H
/* projection_int: what core/projection.c (the model and its run) and
 * core/projection_params.c (the editable parameters) share. Internal to
 * those two files; everyone else goes through core/projection.h. */

#include "core/projection.h"

struct ProjModel {
    int G, P, D, Y, U, M;
    int *gdom;                /* G */
    double *heads0;           /* G: members (active in the window) */
    double *heads_t0;         /* G: of them, still there at t0 (roster end after t0) */
    ProjUser *users;          /* U */
    double *present;          /* U x Y: share of year y before the roster end */
    double *arrive;           /* G x Y */
    double *mix;              /* G x P */
    double *newrate, *ramp;   /* G */
    double *used;             /* G: mean GPU-eq over the window, or over the part of it the
                                 data covers when it starts inside (used now) */
    double *cls_share;        /* G x MEMCLASS_COUNT: the members' use by class */
    double *cap;              /* MEMCLASS_COUNT x Y */
    int64_t *ystart;          /* Y + 1 */
    double *growth, *growth_raw, *pool; /* G: measured */
    double *pool_cap;         /* G: the measured pool's cap (issue 28), INFINITY none */
    int *growth_capped;       /* G */
    double pool_inst, intensity, intensity_raw, growth_inst, newrate_inst, ramp_inst, maturation;
    double window_cover;      /* DemFit.window_cover (1 without a fit) */
    int intensity_capped;
    double *gpus, *mem;       /* P: members' mean rate at the chosen half-life, memory p75 */
    ProjModelInfo models[PROJ_MAX_MODELS];
    ProjCalib calib;
    double *level;            /* G: the forecaster's level / the members' (1: the model's) */
    double level_new;         /* the same for the institute's new groups */
    double extra_new;         /* use the forecaster gives groups the model has not */
    double *gq;               /* G x 2: the group's q10, q90 (NAN: the institute's) */
    double *matf;             /* G: the factor on the group's recent arrivals (1 none) */
    int *matn;                /* G: how many they are */
    double *stated_u;         /* U: the member's stated GPUs full-time, NAN none (issue 28) */
    double *stated_g;         /* G: stated by members the model has no use of (all of it) */
};

/* A copy of src[0..n) (zeros when src is NULL), at least one element;
 * caller frees. */
double *projection_dup_or_zero(const double *src, int n);

#endif
