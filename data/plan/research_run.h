#ifndef RESEARCH_RUN_H
#define RESEARCH_RUN_H
/* research_run: who does what research, computed from the database
 * (issue 18). Loads papers and the roster (store_research), scans the
 * papers for the research terms (core/research_terms: the built-in
 * dictionary plus an optional site file), builds each person's TF-IDF
 * vector (core/tfidf) and the co-author graph, clusters them
 * (core/research: k-means with k by silhouette, or co-author
 * communities), names the clusters from their top terms and sets them
 * beside the latest compute profiles (`capplan profile`): contingency
 * table, ARI, NMI, each cluster's usual profile, whom to ask why, people
 * with papers and no GPU jobs and the reverse. The CLI, the report and the
 * dashboard all read this one result.
 *
 * People are the roster's, professors left out (they co-author every
 * paper of their group). No printing. */

#include <stdint.h>

#include "core/research.h"
#include "core/research_demand.h"
#include "data/store/store_research.h"

typedef struct Store Store;
typedef struct Terms Terms;
typedef struct Plan Plan;

typedef enum { RESEARCH_KMEANS, RESEARCH_COAUTHORS } ResearchMethod;

typedef struct ResearchOpts {
    int since;               /* papers of this year on (default 2019) */
    int k;                   /* 0: by silhouette */
    ResearchMethod method;
    const char *terms_file;  /* a site dictionary, or NULL */
    uint64_t seed;
    const Plan *plan;        /* compute profiles from this plan (borrowed, as the
                                report shows them); NULL: the latest saved run */
    double min_hours;        /* hidden demand: GPU-hours under which no one is compared */
    int per_group;           /* the list: at most this many a group, 0 all (--all) */
} ResearchOpts;

/* Defaults: papers since 2019, k by silhouette, k-means, no site terms,
 * seed 1, the latest saved profile run, RESEARCH_MIN_HOURS and
 * RESEARCH_PER_GROUP. */
void research_opts_init(ResearchOpts *o);

/* One person beside their research and compute. Strings borrowed from
 * the Research that holds it. */
typedef struct ResearchRow {
    const char *user, *group, *role;
    int papers;         /* papers since opts.since */
    int cluster;        /* research cluster, -1: no papers or no term */
    int profile;        /* compute profile of the latest run, -1: none */
    double gpu_hours;   /* in the profile run's window (h); 0: no GPU jobs */
    int last_year;      /* year of their latest paper, 0: none */
    int ask;            /* in the ranked list of hidden demand shown (rank > 0) */
    int off_usual;      /* their profile is not their cluster's usual one (issue 18) */
    double conc, gpus, mem_gib; /* their jobs: GPU-eq a member, GPUs a job, peak memory */
    RsNeedOut need;     /* hidden demand: what their line implies beyond their jobs */
    int papers_no_gpu;  /* a paper in the last two years of papers, no GPU jobs */
    int gpu_no_papers;  /* GPU jobs, no paper since opts.since */
} ResearchRow;

typedef struct Research {
    ResearchOpts opts;
    ResearchData data;
    Terms *terms;
    int nterms;
    ResearchClusters clusters;   /* over rows */
    char **cluster_name;         /* k: top terms, ", "-joined */
    int *cluster_papers;         /* k: papers with an author in the cluster */
    int have_profiles;           /* a profile run exists */
    int kp;
    char **profile_name;         /* kp: chosen else generated names */
    ResearchCompare cmp;
    ResearchRow *rows;
    int nrows;
    int npapers_used;            /* papers with a roster author (not a professor only) */
    ResearchNeed *need;          /* k: each cluster's usual need and budget figure */
    int nflagged, nshown;        /* people whose line implies more; those ranked */
    int recent_from;             /* papers_no_gpu looks at papers of this year on */
} Research;

/* Compute. Returns 0, or -1 with err (database, or a bad terms file:
 * "file:line: reason"). out owns everything: research_free. */
int research_build(Store *st, const ResearchOpts *o, Research *out, CpErr *err);
/* Free what research_build filled; r is zeroed. */
void research_free(Research *r);

/* Cluster c's budget figure (issue 32), as one line into buf: "R6: 5
 * people run below their line's usual 80 GB class; at their peers' use,
 * +2.6 GPU-eq in the 80 GB class next year" (or, on a multi-GPU line with
 * no firm class, "... run under half their line's usual 8 GPUs a job; at
 * their peers' use, +4.4 GPU-eq next year"). Returns 1, or 0 (buf "")
 * when no one in c is flagged. */
int research_budget_text(const Research *r, int c, char *buf, size_t n);

/* The row of user, or NULL. */
const ResearchRow *research_row(const Research *r, const char *user);

#endif
