/* model_edit: what the meeting changes in the dashboard's model as it
 * happens (stated needs, notes, meetings: each keeps the group's "met"
 * mark true to what is recorded) and the model's lookups by name and
 * labels (redacted when asked). tui/model.h says each function's contract. */
#include "tui/model.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/anon.h"

void tui_model_set_stated(TuiModel *m, const char *user, double gpus, double mem,
                          const char *date)
{
    int u = tui_model_user_find(m, user);
    if (u < 0)
        return;
    TuiUser *x = &m->users[u];
    free(x->stated_date);
    x->stated_date = date && gpus >= 0 ? xstrdup(date) : NULL;
    x->stated_gpus = x->stated_date ? gpus : -1;
    x->stated_mem = x->stated_date ? mem : -1;
}

static void group_met(TuiModel *m, int group);

void tui_model_add_note(TuiModel *m, int group, const char *date, const char *text)
{
    m->notes = xrealloc(m->notes, (size_t)(m->nnotes + 1) * sizeof *m->notes);
    TuiNote *n = &m->notes[m->nnotes++];
    n->group = group;
    n->user = NULL;
    n->date = xstrdup(date);
    n->text = xstrdup(text);
    group_met(m, group);
}

void tui_model_drop_note(TuiModel *m, int group, const char *date, const char *text)
{
    for (int i = m->nnotes - 1; i >= 0; i--) {
        TuiNote *n = &m->notes[i];
        if (n->group != group || strcmp(n->date, date) != 0 || strcmp(n->text, text) != 0)
            continue;
        free(n->user), free(n->date), free(n->text);
        memmove(n, n + 1, (size_t)(m->nnotes - i - 1) * sizeof *n);
        m->nnotes--;
        group_met(m, group);
        return;
    }
}

int tui_model_meeting_find(const TuiModel *m, int group, const char *date)
{
    for (int i = 0; i < m->nmeetings; i++)
        if (m->meetings[i].group == group && strcmp(m->meetings[i].date, date) == 0)
            return i;
    return -1;
}

/* group met: a held meeting or a meeting note. */
static void group_met(TuiModel *m, int group)
{
    if (group < 0 || group >= m->ngroups)
        return;
    int met = 0;
    for (int i = 0; i < m->nmeetings && !met; i++)
        met = m->meetings[i].group == group && strcmp(m->meetings[i].status, "held") == 0;
    for (int i = 0; i < m->nnotes && !met; i++)
        met = m->notes[i].group == group;
    m->groups[group].met = met;
}

void tui_model_put_meeting(TuiModel *m, int group, const char *date, const char *attendees,
                           const char *status)
{
    if (group < 0 || group >= m->ngroups)
        return;
    int i = tui_model_meeting_find(m, group, date);
    if (i < 0) {
        m->meetings = xrealloc(m->meetings, (size_t)(m->nmeetings + 1) * sizeof *m->meetings);
        i = m->nmeetings++;
        m->meetings[i].group = group;
        m->meetings[i].date = xstrdup(date);
    } else {
        free(m->meetings[i].attendees), free(m->meetings[i].status);
    }
    m->meetings[i].attendees = xstrdup(attendees ? attendees : "");
    m->meetings[i].status = xstrdup(status);
    group_met(m, group);
}

void tui_model_drop_meeting(TuiModel *m, int group, const char *date)
{
    int i = group >= 0 && group < m->ngroups ? tui_model_meeting_find(m, group, date) : -1;
    if (i < 0)
        return;
    TuiMeeting *x = &m->meetings[i];
    free(x->date), free(x->attendees), free(x->status);
    memmove(x, x + 1, (size_t)(m->nmeetings - i - 1) * sizeof *x);
    m->nmeetings--;
    group_met(m, group);
}

/* The index in [lo, hi] of the record whose name (the char * at offset
 * off of each stride-byte record, sorted by strcmp) is name; -1 if none. */
static int find_sorted_name(const void *base, size_t stride, size_t off, int lo, int hi,
                            const char *name)
{
    while (name && lo <= hi) {
        int mid = (lo + hi) / 2;
        const char *at;
        memcpy(&at, (const char *)base + (size_t)mid * stride + off, sizeof at);
        int c = strcmp(at, name);
        if (c == 0)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

int tui_model_user_find(const TuiModel *m, const char *name)
{
    return find_sorted_name(m->users, sizeof *m->users, offsetof(TuiUser, name), 0,
                            m->nusers - 1, name);
}

int tui_model_group_find(const TuiModel *m, const char *name)
{
    if (!name)
        return -1;
    int hi = m->ngroups - 1;
    if (hi >= 0 && m->groups[hi].pseudo) { /* the pseudo group, last, is outside the sorted order */
        if (strcmp(m->groups[hi].name, name) == 0)
            return hi;
        hi--;
    }
    return find_sorted_name(m->groups, sizeof *m->groups, offsetof(TuiGroup, name), 0, hi,
                            name);
}

char *tui_model_group_label(const TuiModel *m, int g, int redact, char *buf, size_t n)
{
    if (g < 0 || g >= m->ngroups)
        snprintf(buf, n, "-");
    else if (redact && !m->groups[g].pseudo && anon_has_key()) /* keyed, not a rank (#29) */
        anon_name("group", m->groups[g].name, buf, n);
    else if (redact && !m->groups[g].pseudo)
        snprintf(buf, n, "group %02d", g + 1);
    else
        snprintf(buf, n, "%s", m->groups[g].name);
    return buf;
}

char *tui_model_prof_label(const TuiModel *m, int g, int redact, char *buf, size_t n)
{
    if (g < 0 || g >= m->ngroups || !m->groups[g].professor)
        snprintf(buf, n, "-");
    else if (redact && anon_has_key())
        anon_name("prof", m->groups[g].professor, buf, n);
    else if (redact)
        snprintf(buf, n, "prof. %02d", g + 1);
    else
        snprintf(buf, n, "%s", m->groups[g].professor);
    return buf;
}

char *tui_model_user_label(const TuiModel *m, int u, int redact, char *buf, size_t n)
{
    if (u < 0 || u >= m->nusers)
        snprintf(buf, n, "-");
    else if (redact && anon_has_key())
        anon_name("user", m->users[u].name, buf, n);
    else if (redact)
        snprintf(buf, n, "user %03d", u + 1);
    else
        snprintf(buf, n, "%s", m->users[u].name);
    return buf;
}
