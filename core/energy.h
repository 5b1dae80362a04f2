#ifndef ENERGY_H
#define ENERGY_H
/* energy: the energy and carbon of GPU jobs, and what shifting jobs in
 * time would save.
 *
 *   energy (kWh) = GPUs x hours x TDP (W) x u x PUE / 1000
 * with u the job's measured mean GPU utilisation (0..1) where the monitor
 * or sacct gave one, else 1 (the GPU drawn at its TDP: an upper bound);
 *   carbon (kg CO2e) = energy x intensity (gCO2e/kWh) / 1000
 * with the intensity of the job's cluster (a constant, or the mean of an
 * hourly series over the hours the job ran, each hour weighted by the time
 * the job spent in it).
 *
 * TDPs come from the inventory's tdp_w, else from energy_tdp_default (the
 * vendors' public board powers). Only GPU power is counted (plus the
 * facility overhead through PUE): CPUs, memory and network are not.
 *
 * Pure computation over plain arrays: no I/O, no SQLite, no curses. */

#include <stddef.h>
#include <stdint.h>

#define ENERGY_PUE_DEFAULT 1.2
/* When a cluster has neither an intensity nor a series: the world average
 * of electricity generation in 2023, 480 gCO2e/kWh (Ember, Global
 * Electricity Review 2024; IEA gives about the same). */
#define ENERGY_INTENSITY_DEFAULT 480.0
#define ENERGY_TDP_FALLBACK 300.0 /* W, a GPU model nobody knows */
#define ENERGY_SHIFT_DELAY_H 24

/* Board power (W) of a GPU model named like Slurm's GRES types or the
 * inventory ("a100", "A100-SXM4-80GB", "h100_pcie", "v100s"), matched
 * case-insensitively; NaN when unknown. */
double energy_tdp_default(const char *gpu_model);

/* The formula above. util_pct < 0 (or NaN) means unmeasured: at TDP. */
double energy_kwh(double gpus, double hours, double tdp_w, double util_pct, double pue);
/* kg CO2e of kwh at a constant intensity (gCO2e/kWh). */
double energy_carbon_kg(double kwh, double g_per_kwh);

/* An hourly intensity series of one zone on a dense grid: v[i] holds hour
 * [t0 + i x 3600, +3600); hours the source did not give take fill (the
 * zone's mean). Build with energy_series_build, free with
 * energy_series_free. */
typedef struct EnergySeries {
    int64_t t0;
    size_t n;
    double *v;
    double *cum; /* cum[i] = v[0] + ... + v[i-1], n + 1 values */
    double fill; /* outside the grid, and in its holes */
    size_t given; /* hours the source gave */
} EnergySeries;

/* From (hour start, intensity) pairs, any order; several values for one
 * hour are averaged. hour[] are epoch seconds (rounded down to the hour).
 * n may be 0 (then every hour is fill = fallback). */
void energy_series_build(EnergySeries *s, const int64_t *hour, const double *g, size_t n,
                         double fallback);
void energy_series_free(EnergySeries *s);
/* The integral of the intensity over [from, to), in (gCO2e/kWh) x hours. */
double energy_series_integral(const EnergySeries *s, int64_t from, int64_t to);
/* The time-weighted mean intensity over [from, to) (the intensity at from
 * when to <= from). */
double energy_series_mean(const EnergySeries *s, int64_t from, int64_t to);

/* ---- temporal shifting ---- */

/* One job a shift may move: its cluster (0..nclusters), start, run time,
 * GPUs, energy, and whether it ran on a preemptible partition. */
typedef struct EnergyShiftJob {
    int32_t cluster;
    int64_t start;
    int64_t run_s;
    double gpus;
    double kwh;
    int movable;
} EnergyShiftJob;

/* Per job: the carbon it emitted and would have emitted at its best start
 * within the delay, and that start. */
typedef struct EnergyShiftOut {
    double kg_before, kg_after;
    int64_t new_start;
} EnergyShiftOut;

/* Capacity: GPUs in service on cluster c in hour h (hours from t0) is
 * cap[c * nhours + h]; a NULL cap (or a negative cell) leaves that
 * cluster unconstrained. series[c] is the intensity of cluster c. */
typedef struct EnergyShiftGrid {
    int32_t nclusters;
    int64_t t0; /* an hour start */
    size_t nhours;
    const double *cap;
    const EnergySeries *const *series;
} EnergyShiftGrid;

/* Move each movable job, in start order, to the start within
 * [start, start + delay_h hours] (whole hours) where its carbon is least
 * and where it fits in the GPUs the other jobs leave free in every hour it
 * runs (hours are counted whole, at the job's GPUs); a job that fits
 * nowhere else stays. Jobs outside the grid stay. out[i] for every job;
 * returns the total kg saved. */
double energy_shift(const EnergyShiftGrid *g, const EnergyShiftJob *jobs, size_t n, int delay_h,
                    EnergyShiftOut *out);

#endif
