#ifndef TUI_EMPTY_H
#define TUI_EMPTY_H
/* empty: what the database lacks, said where it shows, with the command
 * that adds it (issue 30 item 6): a newcomer with a sacct file or an SWF
 * trace and nothing else reads on the Overview, Groups, Projection and
 * Usage views what is missing and what to import next. No capacity of 0 is
 * ever a shortage: without an inventory, capacity is unknown. Pure: reads
 * the model and the planner. */

#include "tui/app.h"

enum {
    TUI_MISS_ROSTER = 1u << 0,    /* groups are Slurm accounts, students unknown */
    TUI_MISS_INVENTORY = 1u << 1, /* capacity unknown */
    TUI_MISS_GPU = 1u << 2,       /* a CPU-only history: no GPU job in the accounting */
    TUI_MISS_PLAN = 1u << 3       /* no projection (nothing to plan from) */
};

/* The TUI_MISS_* bits of what s's database lacks. */
unsigned tui_missing(const TuiState *s);

/* One line for each bit of which that s lacks (what is missing, its
 * consequence, the command that adds it): static strings into out (max
 * of them). Returns how many. */
int tui_missing_lines(const TuiState *s, unsigned which, const char **out, int max);

/* 1 when no job in the model used a GPU but some used CPUs. */
int tui_cpu_only(const TuiModel *m);

#endif
