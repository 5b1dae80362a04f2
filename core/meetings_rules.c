/* meetings_rules: see meetings_rules.h. */
#include "core/meetings_rules.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/profiles.h"

int meetings_gpus_off(double stated, double measured)
{
    if (isnan(stated) || isnan(measured) || stated < 0 || measured < 0)
        return 0;
    double d = fabs(stated - measured);
    return d > MEET_TOL_ABS && (measured <= 0 || d / measured > MEET_TOL_REL);
}

int meetings_mem_off(double stated_gib, double measured_gib)
{
    if (isnan(stated_gib) || isnan(measured_gib) || stated_gib < 0 || measured_gib < 0)
        return 0;
    return profiles_mem_class(stated_gib) != profiles_mem_class(measured_gib);
}

int meetings_date_ok(const char *s)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return 0;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return 0;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
        return 0;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return !(m == 2 && d == 29 && !leap);
}

int meetings_check(const char *date, const char *status, const char *today, const char **field,
                   char *why, size_t wn)
{
    *field = "date";
    if (!meetings_date_ok(date))
        return snprintf(why, wn, "'%.40s' is not a date (YYYY-MM-DD)", date), -1;
    if (strcmp(status, "planned") && strcmp(status, "held") && strcmp(status, "cancelled")) {
        *field = "status";
        return snprintf(why, wn, "'%.40s' is not planned, held or cancelled", status), -1;
    }
    if (strcmp(status, "planned") == 0 && strcmp(date, today) < 0)
        return snprintf(why, wn, "%s is in the past for a planned meeting (today is %s)", date,
                        today), -1;
    if (strcmp(status, "held") == 0 && strcmp(date, today) > 0)
        return snprintf(why, wn, "%s is in the future for a held meeting (today is %s)", date,
                        today), -1;
    return 0;
}

/* group, date and status required; attendees may be left out */
const char *const meet_cols[] = {"group", "date", "status", "attendees"};
const char *const need_cols[] = {"user", "group", "date", "gpus_fulltime",
                                 "gpu_mem_class_gib", "typical_hours", "burst_per_month",
                                 "burst_gpus", "burst_hours", "text"};
