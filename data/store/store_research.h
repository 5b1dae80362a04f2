#ifndef STORE_RESEARCH_H
#define STORE_RESEARCH_H
/* store_research: the SQL of who does what research (issue 18): papers
 * and their authors written by the publication importers (data/pubs*.c),
 * and read back with each author matched to a roster person through
 * core/names (name and aliases columns of the roster). Matching happens
 * when read, so a roster imported after the papers counts. Bound
 * parameters only. */

#include <stdint.h>

#include "core/cp.h"

typedef struct Store Store;

/* One publication as an importer hands it over (strings borrowed). */
typedef struct PubRec {
    int year;
    const char *title, *venue, *keywords, *abstract, *bibkey; /* NULL when absent */
    const char *const *authors;  /* as written, LaTeX made plain */
    int nauthors;
} PubRec;

typedef struct StorePubs StorePubs;

/* Statements for writing papers, inside the caller's transaction. NULL
 * with err on failure; caller frees with store_pubs_free before COMMIT. */
StorePubs *store_pubs_new(Store *st, CpErr *err);
/* Finalise the statements (NULL allowed). */
void store_pubs_free(StorePubs *sp);

/* Write one paper and its authors. Returns 1 when added, 0 when a paper
 * with that year and title was already there (nothing changes), -1 with
 * err on a database error. */
int store_pubs_put(StorePubs *sp, int64_t import_id, const PubRec *p, CpErr *err);

/* What the database holds, matched. */
typedef struct RsPerson {
    char *user, *group, *role, *name; /* name NULL when the roster has none */
} RsPerson;

typedef struct RsPaper {
    int year;
    char *title;
    char *text;      /* title, keywords and abstract, for the terms */
    int nauthors;
    int *person;     /* nauthors: roster person index, -1 when unmatched */
} RsPaper;

typedef struct RsUnmatched {
    char *name;      /* the first spelling seen */
    int papers;      /* papers it is an author of */
} RsUnmatched;

typedef struct ResearchData {
    RsPerson *people;          /* one per user (latest roster row), by user */
    int npeople;
    RsPaper *papers;           /* year >= since, by id */
    int npapers;
    RsUnmatched *unmatched;    /* by papers descending, then name */
    int nunmatched;
    int64_t slots, matched;    /* author slots, and those matched */
    int papers_matched;        /* papers with at least one roster author */
} ResearchData;

/* Read people and the papers of year >= since, matching authors. Returns
 * 0, or -1 with err. out owns everything: store_research_done. */
int store_research_load(Store *st, int since, ResearchData *out, CpErr *err);
/* Free d's contents; d is zeroed. */
void store_research_done(ResearchData *d);

/* The latest compute profile run (`capplan profile`): its profiles'
 * names (chosen, else generated) and each member's profile and GPU-hours
 * in its window. found 0 when there is no run. */
typedef struct RsMember {
    char *user;
    int profile;       /* -1: too little history */
    double gpu_hours;
} RsMember;

typedef struct RsProfiles {
    int found, k;
    char **name;       /* k */
    RsMember *members;
    int nmembers;
} RsProfiles;

int store_research_profiles(Store *st, RsProfiles *out, CpErr *err);

/* user's latest stated full-time GPUs (stated_needs): 1 and the value,
 * its date (YYYY-MM-DD) and group filled, 0 when none, -1 with err. */
int store_research_stated(Store *st, const char *user, double *gpus, char *date, size_t ndate,
                          char *group, size_t ngroup, CpErr *err);
void store_research_profiles_done(RsProfiles *p);

#endif
