#include "data/ingest/fields.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int slice_eq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    return n == m && memcmp(s, lit, m) == 0;
}

static int slice_ieq(const char *s, size_t n, const char *lit)
{
    size_t m = strlen(lit);
    if (n != m)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char a = s[i], b = lit[i];
        if (a >= 'a' && a <= 'z')
            a = (char)(a - 32);
        if (b >= 'a' && b <= 'z')
            b = (char)(b - 32);
        if (a != b)
            return 0;
    }
    return 1;
}



static int bad_dur(CpErr *err, const char *s, size_t n)
{
    return cp_err_set(err, "bad duration '%.*s'", (int)(n > 64 ? 64 : n), s);
}

int fields_duration(const char *s, size_t n, int64_t *out, CpErr *err)
{
    if (n == 0) {
        *out = CP_DUR_UNKNOWN;
        return 0;
    }
    if (!is_digit(s[0])) { /* the words (a number starts with a digit) */
        if (slice_ieq(s, n, "UNLIMITED") || slice_eq(s, n, "Partition_Limit") ||
            slice_ieq(s, n, "INFINITE")) {
            *out = CP_DUR_UNLIMITED;
            return 0;
        }
        if (slice_eq(s, n, "INVALID") || slice_eq(s, n, "Unknown")) {
            *out = CP_DUR_UNKNOWN;
            return 0;
        }
    }
    const char *p = s, *end = s + n;
    int64_t days = 0, parts[3];
    int np = 0;
    const char *dash = memchr(s, '-', n);
    if (dash) {
        days = fieldtext_uint(&p, dash, 7);
        if (days < 0 || p != dash)
            return bad_dur(err, s, n);
        p = dash + 1;
    }
    while (p < end && np < 3) {
        int64_t v = fieldtext_uint(&p, end, 9);
        if (v < 0)
            return bad_dur(err, s, n);
        parts[np++] = v;
        if (p < end && *p == ':') {
            p++;
            if (p == end)
                return bad_dur(err, s, n);
            continue;
        }
        break;
    }
    if (p < end && *p == '.') {
        p++;
        if (fieldtext_uint(&p, end, 9) < 0)
            return bad_dur(err, s, n);
    }
    if (p != end || np == 0)
        return bad_dur(err, s, n);
    int64_t h = 0, m = 0, sec = 0;
    if (dash) { /* D-HH, D-HH:MM, D-HH:MM:SS */
        h = parts[0];
        m = np > 1 ? parts[1] : 0;
        sec = np > 2 ? parts[2] : 0;
    } else if (np == 3) {
        h = parts[0], m = parts[1], sec = parts[2];
    } else if (np == 2) {
        m = parts[0], sec = parts[1];
    } else {
        sec = parts[0]; /* a plain number of seconds (ElapsedRaw) */
    }
    if (np > 1 && (sec > 59 || (m > 59 && (np == 3 || dash))))
        return bad_dur(err, s, n);
    if (dash && h > 23)
        return bad_dur(err, s, n);
    *out = days * 86400 + h * 3600 + m * 60 + sec;
    return 0;
}

static int unit_scale_mib(char u, double *scale)
{
    switch (u) {
    case 'K': case 'k': *scale = 1.0 / 1024.0; return 0;
    case 'M': case 'm': *scale = 1.0; return 0;
    case 'G': case 'g': *scale = 1024.0; return 0;
    case 'T': case 't': *scale = 1024.0 * 1024.0; return 0;
    case 'P': case 'p': *scale = 1024.0 * 1024.0 * 1024.0; return 0;
    default: return -1;
    }
}

int fields_mem(const char *s, size_t n, int plain_is_bytes, int32_t ncpus, int32_t nnodes,
               double *out_mib, CpErr *err)
{
    if (n == 0) {
        *out_mib = -1;
        return 0;
    }
    size_t m = n;
    double per = 1.0;
    int share = s[m - 1] == 'n' || s[m - 1] == 'c';
    if (share) {
        int32_t k = s[m - 1] == 'c' ? ncpus : nnodes;
        per = k > 0 ? (double)k : 1.0;
        m--;
    }
    double scale = plain_is_bytes ? 1.0 / (1024.0 * 1024.0) : 1.0;
    if (m > 0 && unit_scale_mib(s[m - 1], &scale) == 0)
        m--;
    double v;
    size_t i = 0;
    int64_t iv = 0;
    while (i < m && i < 15 && is_digit(s[i])) /* plain digits: fields_double's first path */
        iv = iv * 10 + (s[i++] - '0');
    if (m > 0 && i == m)
        v = (double)iv;
    else if (m == 0 || fields_double(s, m, &v, NULL) < 0 || v < 0)
        return cp_err_set(err, "bad memory '%.*s'", (int)(n > 64 ? 64 : n), s);
    /* "0n", "0c": all of the node's memory, whatever that is: unknown */
    *out_mib = share && v == 0 ? -1 : v * scale * per;
    return 0;
}

/* "a100_3g.20gb" -> 3/7 of a GPU; other names -> 1. */
static double mig_fraction(const char *type, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (type[i] == '_' && is_digit(type[i + 1])) {
            size_t j = i + 1;
            int g = 0;
            while (j < n && is_digit(type[j]) && g <= 7)
                g = g * 10 + (type[j++] - '0');
            if (j < n && type[j] == 'g' && g >= 1 && g <= 7)
                return g / 7.0;
        }
    }
    return 1.0;
}

void fields_gpu_entry(const char *name, size_t n, double count, double *untyped,
                      double *typed, char type_out[CP_GPU_TYPE_MAX])
{
    /* name is "gpu" or "gpu:TYPE" */
    if (n == 3) {
        *untyped = (*untyped < 0 ? 0 : *untyped) + count;
        return;
    }
    const char *type = name + 4;
    size_t tn = n - 4;
    *typed = (*typed < 0 ? 0 : *typed) + count * mig_fraction(type, tn);
    if (type_out[0] == '\0' && tn > 0) {
        size_t k = tn < CP_GPU_TYPE_MAX - 1 ? tn : CP_GPU_TYPE_MAX - 1;
        memcpy(type_out, type, k);
        type_out[k] = '\0';
    }
}

static int is_gpu_name(const char *s, size_t n)
{
    return (n == 3 && memcmp(s, "gpu", 3) == 0) || (n > 4 && memcmp(s, "gpu:", 4) == 0);
}

static int tres_entry(const char *k, size_t kn, const char *v, size_t vn, CpTres *t,
                      double *untyped, double *typed, CpErr *err)
{
    double d;
    if (kn > 5 && memcmp(k, "gres/", 5) == 0) {
        const char *g = k + 5;
        size_t gn = kn - 5;
        if (is_gpu_name(g, gn)) {
            if (fields_double(v, vn, &d, NULL) < 0 || d < 0)
                return cp_err_set(err, "bad TRES count '%.*s=%.*s'", (int)kn, k, (int)vn, v);
            fields_gpu_entry(g, gn, d, untyped, typed, t->gpu_type);
        } else if (gn >= 6 && memcmp(g, "gpumem", 6) == 0 && (gn == 6 || g[6] == ':')) {
            double mib;
            if (fields_mem(v, vn, 1, 0, 0, &mib, err) < 0)
                return -1;
            if (t->gpu_mem_gib < mib / 1024.0)
                t->gpu_mem_gib = mib / 1024.0;
        } else if (gn >= 7 && memcmp(g, "gpuutil", 7) == 0 && (gn == 7 || g[7] == ':')) {
            if (fields_double(v, vn, &d, NULL) < 0)
                return cp_err_set(err, "bad TRES gpuutil '%.*s'", (int)vn, v);
            if (gn == 7 || t->gpu_util < 0)
                t->gpu_util = d;
        }
        return 0;
    }
    if (kn == 3 && memcmp(k, "mem", 3) == 0) {
        /* Memory TRES: units given (M/G); a duration-like value means usage. */
        return fields_mem(v, vn, 0, 0, 0, &t->mem_mib, err);
    }
    if ((kn == 3 && memcmp(k, "cpu", 3) == 0) || (kn == 4 && memcmp(k, "node", 4) == 0)) {
        double *dst = k[0] == 'c' ? &t->cpus : &t->nodes;
        if (fields_double(v, vn, &d, NULL) == 0)
            *dst = d; /* TRESUsageInMax cpu=00:00:00 is a time: skipped */
        return 0;
    }
    return 0; /* billing, energy, fs/disk, license/..., vmem, pages */
}

int fields_tres(const char *s, size_t n, CpTres *t, CpErr *err)
{
    memset(t, 0, sizeof *t);
    t->gpus = t->mem_mib = t->cpus = t->nodes = t->gpu_mem_gib = t->gpu_util = -1;
    double untyped = -1, typed = -1;
    const char *p = s, *end = s + n;
    while (p < end) {
        const char *eq = p, *e;
        while (eq < end && *eq != '=' && *eq != ',') /* entries are short: no memchr calls */
            eq++;
        if (eq == end || *eq == ',' || eq == p) /* no '=' before the entry's end, or no key */
            return cp_err_set(err, "bad TRES '%.*s'", (int)(n > 80 ? 80 : n), s);
        for (e = eq + 1; e < end && *e != ','; e++)
            ;
        if (tres_entry(p, (size_t)(eq - p), eq + 1, (size_t)(e - eq - 1), t, &untyped, &typed,
                       err) < 0)
            return -1;
        p = e < end ? e + 1 : end;
    }
    t->gpus = untyped >= 0 ? untyped : typed;
    return 0;
}

int fields_tres_memo(FieldsTresMemo *m, const char *s, size_t n, CpTres *t, CpErr *err)
{
    if (n > FIELDS_TRES_MEMO_LEN)
        return fields_tres(s, n, t, err);
    /* 16 bytes at a time in two independent lanes (a slot's choice only:
     * the text is compared), so the multiplies need not wait for each other */
    uint64_t h = n * 0x9E3779B97F4A7C15ULL, g = 0x94D049BB133111EBULL;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint64_t w, v;
        memcpy(&w, s + i, 8);
        memcpy(&v, s + i + 8, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        g = (g ^ v) * 0xC4CEB9FE1A85EC53ULL;
        h ^= h >> 29;
        g ^= g >> 31;
    }
    uint64_t w = 0;
    if (n - i > 8) { /* 9 to 15 bytes left: 8 of them, then the last 8 */
        memcpy(&w, s + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
        i += 8;
    }
    if (n >= 8 && i < n) /* the last 8 bytes (some hashed already: no matter) */
        memcpy(&w, s + n - 8, 8);
    else
        for (; i < n; i++)
            w = w << 8 | (unsigned char)s[i];
    h ^= (g ^ w) * 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33; /* fmix64's end: every bit of both lanes reaches the slot's */
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    FieldsTresMemoSlot *e = &m->slot[h % FIELDS_TRES_MEMO_SLOTS];
    if (e->used && e->len == n && memcmp(e->text, s, n) == 0) {
        *t = e->tres;
        return 0;
    }
    if (fields_tres(s, n, t, err) < 0)
        return -1; /* errors are not kept: each line says its own */
    e->used = 1;
    e->len = n;
    memcpy(e->text, s, n);
    e->tres = *t;
    return 0;
}

int fields_gres(const char *s, size_t n, double *gpus, char type_out[CP_GPU_TYPE_MAX], CpErr *err)
{
    double untyped = -1, typed = -1;
    const char *p = s, *end = s + n;
    type_out[0] = '\0';
    while (p < end) {
        /* entries are separated by commas outside parentheses */
        const char *e = p;
        int depth = 0;
        while (e < end && (depth > 0 || *e != ',')) {
            depth += *e == '(' ? 1 : *e == ')' ? -1 : 0;
            e++;
        }
        const char *paren = memchr(p, '(', (size_t)(e - p));
        const char *body_end = paren ? paren : e;
        if (body_end - p >= 3 && memcmp(p, "gpu", 3) == 0 && (body_end - p == 3 || p[3] == ':')) {
            /* gpu[:type]:count or gpu[:type] (count 1) */
            const char *last = body_end;
            while (last > p && last[-1] != ':')
                last--;
            double cnt = 1;
            size_t name_n = (size_t)(body_end - p);
            if (last > p && fields_double(last, (size_t)(body_end - last), &cnt, NULL) == 0)
                name_n = (size_t)(last - 1 - p);
            else if (last > p && last != body_end && !(last - p > 4))
                return cp_err_set(err, "bad GRES '%.*s'", (int)(n > 80 ? 80 : n), s);
            if (cnt < 0)
                return cp_err_set(err, "bad GRES '%.*s'", (int)(n > 80 ? 80 : n), s);
            fields_gpu_entry(p, name_n, cnt, &untyped, &typed, type_out);
        }
        p = e < end ? e + 1 : end;
    }
    *gpus = untyped >= 0 ? untyped : typed;
    return 0;
}

/* The most common first (each word is unique: the order does not change a result). */
static const struct {
    const char *word;
    CpState st;
} state_words[] = {
    {"COMPLETED", CP_ST_COMPLETED},   {"FAILED", CP_ST_FAILED},
    {"CANCELLED", CP_ST_CANCELLED},   {"TIMEOUT", CP_ST_TIMEOUT},
    {"PENDING", CP_ST_PENDING},       {"RUNNING", CP_ST_RUNNING},
    {"SUSPENDED", CP_ST_SUSPENDED},   {"COMPLETING", CP_ST_RUNNING},
    {"PREEMPTED", CP_ST_PREEMPTED},   {"NODE_FAIL", CP_ST_NODE_FAIL},
    {"OUT_OF_MEMORY", CP_ST_OUT_OF_MEMORY}, {"REQUEUED", CP_ST_REQUEUED},
    {"REQUEUE_FED", CP_ST_REQUEUED},  {"REQUEUE_HOLD", CP_ST_REQUEUED},
    {"BOOT_FAIL", CP_ST_BOOT_FAIL},   {"DEADLINE", CP_ST_DEADLINE},
    {"PD", CP_ST_PENDING},            {"R", CP_ST_RUNNING},
    {"CD", CP_ST_COMPLETED},          {"F", CP_ST_FAILED},
    {"CA", CP_ST_CANCELLED},          {"TO", CP_ST_TIMEOUT},
    {"PR", CP_ST_PREEMPTED},          {"NF", CP_ST_NODE_FAIL},
    {"OOM", CP_ST_OUT_OF_MEMORY},     {"RQ", CP_ST_REQUEUED},
};

CpState fields_state(const char *s, size_t n)
{
    size_t w = 0;
    while (w < n && s[w] != ' ' && s[w] != '+')
        w++; /* "CANCELLED by 1234", "CANCELLED+" */
    for (size_t i = 0; i < sizeof state_words / sizeof state_words[0]; i++) /* as sacct spells it */
        if (w > 0 && state_words[i].word[0] == s[0] && slice_eq(s, w, state_words[i].word))
            return state_words[i].st;
    for (size_t i = 0; i < sizeof state_words / sizeof state_words[0]; i++)
        if (slice_ieq(s, w, state_words[i].word))
            return state_words[i].st;
    return CP_ST_OTHER;
}

int fields_exit(const char *s, size_t n, int *code, int *sig, CpErr *err)
{
    *code = *sig = -1;
    if (n == 0)
        return 0;
    if (n == 3 && is_digit(s[0]) && s[1] == ':' && is_digit(s[2])) { /* the usual "0:0" */
        *code = s[0] - '0';
        *sig = s[2] - '0';
        return 0;
    }
    const char *colon = memchr(s, ':', n);
    int64_t c, g = 0;
    if (fields_int(s, colon ? (size_t)(colon - s) : n, &c, NULL) < 0 ||
        (colon && fields_int(colon + 1, (size_t)(s + n - colon - 1), &g, NULL) < 0) || c < 0 ||
        c > 255 || g < 0 || g > 255)
        return cp_err_set(err, "bad exit code '%.*s'", (int)(n > 32 ? 32 : n), s);
    *code = (int)c;
    *sig = (int)g;
    return 0;
}

int fields_jobid(const char *s, size_t n, int64_t *id, int64_t *array_job, int32_t *array_task,
                 const char **step, size_t *step_len, CpErr *err)
{
    const char *p = s, *end = s + n;
    *array_job = 0;
    *array_task = -1;
    *step = NULL;
    *step_len = 0;
    int64_t v = fieldtext_uint(&p, end, 18);
    if (v < 0)
        return cp_err_set(err, "bad job id '%.*s'", (int)(n > 64 ? 64 : n), s);
    *id = v;
    if (p < end && *p == '_') { /* array: parent_task or parent_[range] */
        p++;
        *array_job = v;
        if (p < end && *p == '[') {
            const char *close = memchr(p, ']', (size_t)(end - p));
            if (!close)
                return cp_err_set(err, "bad job id '%.*s'", (int)(n > 64 ? 64 : n), s);
            p = close + 1;
        } else {
            int64_t t = fieldtext_uint(&p, end, 9);
            if (t < 0)
                return cp_err_set(err, "bad job id '%.*s'", (int)(n > 64 ? 64 : n), s);
            *array_task = (int32_t)t;
        }
    } else if (p < end && *p == '+') { /* heterogeneous component */
        p++;
        if (fieldtext_uint(&p, end, 9) < 0)
            return cp_err_set(err, "bad job id '%.*s'", (int)(n > 64 ? 64 : n), s);
    }
    if (p < end && *p == '.') {
        if (p + 1 == end)
            return cp_err_set(err, "bad job id '%.*s'", (int)(n > 64 ? 64 : n), s);
        *step = p + 1;
        *step_len = (size_t)(end - p - 1);
        p = end;
    }
    if (p != end)
        return cp_err_set(err, "bad job id '%.*s'", (int)(n > 64 ? 64 : n), s);
    return 0;
}
