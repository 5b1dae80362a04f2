#ifndef STATUS_RESEARCH_H
#define STATUS_RESEARCH_H
/* status_research: the papers part of `capplan status` (issue 18): papers
 * with their text, author slots matched to the roster, the authors that
 * match no one and the names several people share, most frequent first. */

#include <cJSON.h>
#include <stdio.h>

#include "data/store/store_research.h"

#define STATUS_UNMATCHED_SHOWN 20

/* Add papers, rows_merged, author_slots, author_slots_matched,
 * author_slots_ambiguous, unmatched_authors and ambiguous_authors (the
 * counts), unmatched and ambiguous (every one: name, papers) to o. */
void status_research_json(cJSON *o, const ResearchData *d);

/* The same as text lines (the first STATUS_UNMATCHED_SHOWN names);
 * nothing when there are no papers. */
void status_research_text(FILE *out, const ResearchData *d);

#endif
