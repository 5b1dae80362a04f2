/* leavers: see core/leavers.h. */
#include <math.h>

#include "core/leavers.h"

#define YEAR_S (365.2425 * 86400.0)

int64_t leave_known(int64_t end, int64_t planned, int64_t t0, int known_now)
{
    if (end != LEAVE_NONE && (end < t0 || known_now))
        return end;
    if (planned != LEAVE_NONE && planned >= t0)
        return planned;
    return LEAVE_NONE;
}

double leave_churn(LeaveCount group, LeaveCount inst)
{
    if (!(inst.active > 0))
        return 0;
    double r = (group.left + LEAVE_PRIOR * inst.left / inst.active) / (group.active + LEAVE_PRIOR);
    return r < 0 ? 0 : r > 1 ? 1 : r;
}

/* The mean of (1 - q)^x over [x0, x1] years, 0 <= x0 < x1. */
static double mean_survival(double lam, double x0, double x1)
{
    return (exp(-lam * x0) - exp(-lam * x1)) / (lam * (x1 - x0));
}

double leave_presence(double q, int64_t t0, int64_t a, int64_t b)
{
    if (!(q > 0) || b <= a)
        return 1;
    double lam = -log1p(-(q < 0.99 ? q : 0.99));
    double x0 = ((double)a - (double)t0) / YEAR_S, x1 = ((double)b - (double)t0) / YEAR_S;
    if (x1 <= 0)
        return 1;
    if (x0 >= 0)
        return mean_survival(lam, x0, x1);
    /* before t0 all there, then the survival */
    return (-x0 + x1 * mean_survival(lam, 0, x1)) / (x1 - x0);
}
