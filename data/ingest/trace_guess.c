/* trace_guess: which public trace a file looks like, from its first line
 * (see trace.h). Only for hints: the readers decide for themselves. */
#include "data/ingest/trace.h"

#include <stdio.h>
#include <string.h>

/* 1 when the line [s, s+n) holds word (as a column name: bounded by the
 * line's ends or by a comma). */
static int has_col(const char *s, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(s + i, word, w) == 0 && (i == 0 || s[i - 1] == ',') &&
            (i + w == n || s[i + w] == ',' || s[i + w] == '\r'))
            return 1;
    return 0;
}

const char *trace_guess_kind(const char *head, size_t n)
{
    size_t i = 0;
    if (n >= 3 && memcmp(head, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    while (i < n && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n'))
        i++;
    if (i == n)
        return NULL;
    if (head[i] == ';')
        return "swf";
    if (head[i] == '[')
        return "philly";
    const char *s = head + i, *nl = memchr(s, '\n', n - i);
    size_t len = nl ? (size_t)(nl - s) : n - i;
    if (has_col(s, len, "gpu_milli") || has_col(s, len, "instance_sn") ||
        (has_col(s, len, "sn") && has_col(s, len, "model") && has_col(s, len, "gpu")))
        return "alibaba-pod";
    if (has_col(s, len, "job_id") && has_col(s, len, "vc"))
        return has_col(s, len, "cpu_num") ? "helios" : "philly";
    if (has_col(s, len, "timestamp") && has_col(s, len, "num_gpus"))
        return "philly";
    if (has_col(s, len, "job_name") && (has_col(s, len, "inst_num") || has_col(s, len, "task_name")))
        return "pai";
    return NULL;
}

const char *trace_guess_file(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char head[4096];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return trace_guess_kind(head, n);
}
