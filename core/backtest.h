#ifndef BACKTEST_H
#define BACKTEST_H
/* backtest: how far a projection fitted on data before a cut date was
 * from what was then used in the 12 months after it, per group and in
 * total, beside the naive projection (each group's last 12 months of use
 * times its growth).
 *
 * Every figure is a mean number of GPUs held over a period (GPU-hours /
 * hours of the period), so that a projection of demand and a record of
 * use compare directly. The error of a set of groups is the WAPE
 * (weighted absolute percentage error): sum |projected - actual| / sum
 * actual, which weighs each group by its use and stays defined when a
 * group used nothing.
 *
 * Pure computation over caller-owned arrays: no I/O, no SQLite. */

/* One group: before (mean GPUs over the 12 months before the cut), after
 * (over the scored months after it), growth r_g, and the model's
 * projections (year 1 base and demand). */
typedef struct BtGroup {
    double before, after, growth;
    double model_base, model_demand;
    double naive;                      /* filled by backtest_score */
    double err_naive, err_base, err_demand; /* |projected - after| */
} BtGroup;

typedef struct BtScore {
    double after, naive, base, demand;   /* totals */
    double wape_naive, wape_base, wape_demand; /* -1 when nothing was used after */
} BtScore;

/* naive_g = before_g x (1 + growth_g); the errors per group and the WAPEs
 * over all n groups. */
void backtest_score(BtGroup *groups, int n, BtScore *out);

/* sum |pred - actual| / sum actual over n values; -1 when sum actual <= 0. */
double backtest_wape(const double *pred, const double *actual, int n);

/* The p-th percentile (0..100) of n values, linear between order
 * statistics; v is reordered (a selection). NAN when n == 0. */
double backtest_percentile(double *v, int n, double p);

#endif
