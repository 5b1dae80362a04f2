#include "data/store/store_schema.h"

/* Version 1: accounting, people, reference data, materialised usage. */
static const char v1[] =
    "CREATE TABLE clusters(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE accounts(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE partitions(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE qos(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE imports(\n"
    "  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, path TEXT NOT NULL, format TEXT,\n"
    "  started_at INTEGER NOT NULL, finished_at INTEGER,\n"
    "  rows_read INTEGER, rows_added INTEGER, rows_updated INTEGER, rows_rejected INTEGER);\n"
    /* One row per attempt: requeued and preempted jobs appear once per
     * attempt; final = 1 on the latest attempt, which counts as the job. */
    "CREATE TABLE jobs(\n"
    "  id INTEGER PRIMARY KEY,\n"
    "  cluster_id INTEGER NOT NULL REFERENCES clusters(id),\n"
    "  job_raw INTEGER NOT NULL, submit INTEGER NOT NULL,\n"
    "  job_id TEXT NOT NULL, array_job INTEGER, array_task INTEGER,\n"
    "  user_id INTEGER REFERENCES users(id), account_id INTEGER REFERENCES accounts(id),\n"
    "  partition_id INTEGER REFERENCES partitions(id), qos_id INTEGER REFERENCES qos(id),\n"
    "  name TEXT, state INTEGER NOT NULL, state_raw TEXT,\n"
    "  exit_code INTEGER, exit_signal INTEGER,\n"
    "  eligible INTEGER, start INTEGER, end_time INTEGER, elapsed INTEGER, timelimit INTEGER,\n"
    "  nnodes INTEGER, ncpus INTEGER, req_mem_mib REAL, max_rss_mib REAL,\n"
    "  gpus REAL NOT NULL DEFAULT 0, req_gpus REAL, gpu_type TEXT,\n"
    "  gpu_mem_gib REAL, gpu_mem_source INTEGER NOT NULL DEFAULT 0,\n"
    "  gpu_util REAL, total_cpu_s REAL, nodelist TEXT,\n"
    "  final INTEGER NOT NULL DEFAULT 1, rec_hash INTEGER NOT NULL,\n"
    "  import_id INTEGER REFERENCES imports(id));\n"
    /* A job attempt is keyed (cluster, job id, submit): the index finds a
     * job's attempts by its numeric id; store.c matches submit and the
     * displayed id (array tasks can share a raw id in a pending record). */
    "CREATE INDEX jobs_key ON jobs(cluster_id, job_raw);\n"
    /* The research side: groups, people (a dated roster), reference data. */
    "CREATE TABLE groups(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, domain TEXT,\n"
    "  professor TEXT);\n"
    "CREATE TABLE people(\n"
    "  id INTEGER PRIMARY KEY, user TEXT NOT NULL, group_name TEXT NOT NULL,\n"
    "  role TEXT NOT NULL, domain TEXT, start_date TEXT, end_date TEXT, supervisor TEXT,\n"
    "  import_id INTEGER REFERENCES imports(id),\n"
    "  UNIQUE(user, group_name, start_date));\n"
    "CREATE TABLE inventory(\n"
    "  id INTEGER PRIMARY KEY, cluster TEXT NOT NULL, gpu_model TEXT NOT NULL,\n"
    "  gpus INTEGER NOT NULL, gpu_mem_gib REAL NOT NULL, from_date TEXT NOT NULL,\n"
    "  to_date TEXT, relative_speed REAL, tdp_w REAL, import_id INTEGER,\n"
    "  UNIQUE(cluster, gpu_model, from_date));\n"
    "CREATE TABLE events(id INTEGER PRIMARY KEY, date TEXT NOT NULL, cluster TEXT NOT NULL,\n"
    "  label TEXT NOT NULL, import_id INTEGER, UNIQUE(date, cluster, label));\n"
    "CREATE TABLE pubs(id INTEGER PRIMARY KEY, year INTEGER NOT NULL, group_name TEXT NOT NULL,\n"
    "  title TEXT NOT NULL, domain TEXT, authors TEXT, import_id INTEGER,\n"
    "  UNIQUE(year, group_name, title));\n"
    /* GPU memory / utilisation measured by a monitor, per job key. */
    "CREATE TABLE gpu_metrics(id INTEGER PRIMARY KEY, cluster TEXT NOT NULL, job_key TEXT NOT NULL,\n"
    "  gpu_mem_max_gib REAL, gpu_util_mean REAL, samples INTEGER NOT NULL DEFAULT 1,\n"
    "  import_id INTEGER, UNIQUE(cluster, job_key));\n"
    /* Usage per month, materialised as jobs are written. Hours of a job
     * that runs across a month boundary are charged pro rata. */
    "CREATE TABLE usage_month(\n"
    "  month INTEGER NOT NULL, cluster_id INTEGER NOT NULL, account_id INTEGER NOT NULL,\n"
    "  user_id INTEGER NOT NULL, partition_id INTEGER NOT NULL,\n"
    "  jobs INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0,\n"
    "  gpu_jobs INTEGER NOT NULL DEFAULT 0, gpu_hours REAL NOT NULL DEFAULT 0,\n"
    "  cpu_hours REAL NOT NULL DEFAULT 0, wait_s REAL NOT NULL DEFAULT 0,\n"
    "  waited INTEGER NOT NULL DEFAULT 0, preempted INTEGER NOT NULL DEFAULT 0,\n"
    "  gpu_hours_lost REAL NOT NULL DEFAULT 0,\n"
    "  PRIMARY KEY(month, cluster_id, account_id, user_id, partition_id)) WITHOUT ROWID;\n";

/* Version 2: what was said in the planning meetings. notes: free text per
 * group (user: who said it, NULL for the group as a whole); stated_needs:
 * what a member says they need, to set beside what the accounting shows
 * (GPUs used full-time, the GPU memory class in GiB: 24, 48, 80 or more,
 * the typical job length, and exploration/HPO bursts: how many a month, how
 * many GPUs, for how many hours). Both dated (YYYY-MM-DD). */
static const char v2[] =
    "CREATE TABLE notes(id INTEGER PRIMARY KEY, group_name TEXT NOT NULL, user TEXT,\n"
    "  date TEXT NOT NULL, text TEXT NOT NULL, UNIQUE(group_name, date, text));\n"
    "CREATE TABLE stated_needs(\n"
    "  id INTEGER PRIMARY KEY, user TEXT NOT NULL, group_name TEXT NOT NULL,\n"
    "  date TEXT NOT NULL, gpus_fulltime REAL, gpu_mem_class_gib REAL, typical_hours REAL,\n"
    "  burst_per_month REAL, burst_gpus REAL, burst_hours REAL, text TEXT,\n"
    "  UNIQUE(user, group_name, date));\n"
    "CREATE INDEX stated_needs_group ON stated_needs(group_name);\n";

/* Version 3: compute profiles and scenarios (core/profiles, core/projection,
 * data/store/store_plan.c). profile_runs: one row per `capplan profile` (unit
 * 'gpu', or 'cpu' when CPUs stand in for GPUs; the window; k, silhouette,
 * inertia; the last import it saw, to tell when it is stale); profiles: its
 * clusters (idx 0-based, the generated name, centroid in raw units);
 * profile_members: each user's features and profile (-1: too little
 * history); profile_names: a chosen name for a generated one (a rename
 * survives re-clustering). scenarios: named sets of edited parameters;
 * scenario_params: the current edit of each (key, group '' for all, value,
 * the measured value when it was made, label: the profile's generated name
 * for gpus.N and mem.N, who, why, when); scenario_edits: every edit in
 * order (old and new value), for the record and for undo. */
static const char v3[] =
    "CREATE TABLE profile_runs(\n"
    "  id INTEGER PRIMARY KEY, created_at INTEGER NOT NULL, who TEXT,\n"
    "  unit TEXT NOT NULL, win_start INTEGER NOT NULL, win_end INTEGER NOT NULL,\n"
    "  window_months INTEGER NOT NULL, roles TEXT, min_jobs INTEGER NOT NULL,\n"
    "  k INTEGER NOT NULL, k_auto INTEGER NOT NULL, silhouette REAL, inertia REAL,\n"
    "  seed INTEGER NOT NULL, restarts INTEGER NOT NULL, jobs_used INTEGER NOT NULL,\n"
    "  last_import INTEGER);\n"
    "CREATE TABLE profiles(\n"
    "  run_id INTEGER NOT NULL, idx INTEGER NOT NULL, generated TEXT NOT NULL,\n"
    "  size INTEGER NOT NULL, mem_requested INTEGER NOT NULL DEFAULT 0,\n"
    "  gpus_p90 REAL, mem_gib REAL, dur_mean_h REAL, dur_max_h REAL, gpu_hours_month REAL,\n"
    "  conc_mean REAL, conc_peak REAL, PRIMARY KEY(run_id, idx)) WITHOUT ROWID;\n"
    "CREATE TABLE profile_members(\n"
    "  run_id INTEGER NOT NULL, user_id INTEGER NOT NULL, profile INTEGER NOT NULL,\n"
    "  group_name TEXT NOT NULL, domain TEXT, role TEXT, end_date TEXT,\n"
    "  njobs INTEGER NOT NULL, gpu_hours REAL NOT NULL, gpus_p90 REAL, mem_gib REAL,\n"
    "  mem_source INTEGER NOT NULL DEFAULT 0, dur_mean_h REAL, dur_max_h REAL,\n"
    "  gpu_hours_month REAL, conc_mean REAL, conc_peak REAL, burst_frac REAL,\n"
    "  PRIMARY KEY(run_id, user_id)) WITHOUT ROWID;\n"
    "CREATE TABLE profile_names(generated TEXT PRIMARY KEY, name TEXT NOT NULL, who TEXT,\n"
    "  reason TEXT, at INTEGER NOT NULL);\n"
    "CREATE TABLE scenarios(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, base TEXT,\n"
    "  created_at INTEGER NOT NULL, who TEXT, note TEXT);\n"
    "CREATE TABLE scenario_params(\n"
    "  scenario_id INTEGER NOT NULL, key TEXT NOT NULL, group_name TEXT NOT NULL DEFAULT '',\n"
    "  value REAL NOT NULL, measured REAL, label TEXT, reason TEXT, who TEXT,\n"
    "  at INTEGER NOT NULL, PRIMARY KEY(scenario_id, key, group_name));\n"
    "CREATE TABLE scenario_edits(\n"
    "  id INTEGER PRIMARY KEY, scenario_id INTEGER NOT NULL, key TEXT NOT NULL,\n"
    "  group_name TEXT NOT NULL DEFAULT '', old_value REAL, new_value REAL, measured REAL,\n"
    "  label TEXT, reason TEXT, who TEXT, at INTEGER NOT NULL);\n"
    "CREATE INDEX scenario_edits_scenario ON scenario_edits(scenario_id);\n";

/* Version 4: `capplan collect` (data/store/store_collect.c). One row per
 * successful collect: the cluster list given to sacct -M ('' = the
 * machine's own), the window read [since, until] (epoch seconds UTC) and the
 * import that landed it. The next collect starts where the covered windows
 * end, less an overlap. */
static const char v4[] =
    "CREATE TABLE collects(id INTEGER PRIMARY KEY, clusters TEXT NOT NULL DEFAULT '',\n"
    "  since INTEGER NOT NULL, until INTEGER NOT NULL,\n"
    "  import_id INTEGER REFERENCES imports(id), at INTEGER NOT NULL);\n"
    "CREATE INDEX collects_clusters ON collects(clusters, since);\n";

/* Version 5: the statistics cache (data/store/store_stats.c). part 0 holds the
 * header (data: the numbers of job attempts and usage rows, then the GPU
 * type names), parts 1.. the attempts and parts -1.. usage_month as packed
 * records; fingerprint says which state of the jobs they describe. A
 * cache, never the only copy of anything: deleting its rows is safe. */
static const char v5[] =
    "CREATE TABLE stats_cache(part INTEGER PRIMARY KEY, fingerprint TEXT NOT NULL,\n"
    "  data BLOB NOT NULL);\n";

/* Version 6: allocation-policy replay and energy/carbon (issue 9,
 * data/store/store_policy.c): allocations (GPU-hours per group and calendar
 * year), carbon_intensity (an hourly series per zone: hour = the hour's
 * first epoch second UTC, gCO2e/kWh), sites (per cluster: PUE, the carbon
 * zone of its series, or a constant intensity; NULL = the default). */
static const char v6[] =
    "CREATE TABLE allocations(group_name TEXT NOT NULL, year INTEGER NOT NULL,\n"
    "  gpu_hours REAL NOT NULL, import_id INTEGER, PRIMARY KEY(group_name, year));\n"
    "CREATE TABLE carbon_intensity(zone TEXT NOT NULL, hour INTEGER NOT NULL,\n"
    "  g_per_kwh REAL NOT NULL, import_id INTEGER, PRIMARY KEY(zone, hour)) WITHOUT ROWID;\n"
    "CREATE TABLE sites(cluster TEXT PRIMARY KEY, carbon_zone TEXT, pue REAL,\n"
    "  carbon_intensity REAL, import_id INTEGER);\n";

/* Version 7: the meeting workflow (issue 10, data/store/store_meetings.c).
 * meetings: the plan of the group meetings, one row per group and date
 * (YYYY-MM-DD), who attends (logins separated by ';') and whether it is
 * planned, held or cancelled. */
static const char v7[] =
    "CREATE TABLE meetings(id INTEGER PRIMARY KEY, group_name TEXT NOT NULL,\n"
    "  date TEXT NOT NULL, attendees TEXT NOT NULL DEFAULT '',\n"
    "  status TEXT NOT NULL CHECK(status IN ('planned','held','cancelled')),\n"
    "  UNIQUE(group_name, date));\n";

/* Version 8: reports (issue 6): peers, other institutes' resources for the
 * report's comparison (data/ingest/peers.c): GPUs and researchers per institution,
 * the latest import of an institution replacing the one before. */
static const char v8[] =
    "CREATE TABLE peers(institution TEXT PRIMARY KEY, gpus REAL NOT NULL,\n"
    "  researchers REAL NOT NULL, import_id INTEGER);\n";

/* Version 9: the window the accounting covers, kept at import (data/store/store.c)
 * so that the dashboard need not read every job for it: lo the first
 * submission (else start), hi the last time recorded (the end of a run,
 * else its start, else its submission), over every attempt, with the
 * conversions of data/store/store_stats.c (32-bit epoch seconds, elapsed else
 * end - start), so that it is core/stats's stats_window. One row, id 1;
 * filled here from the jobs a database already holds. */
static const char v9[] =
    "CREATE TABLE acct_window(id INTEGER PRIMARY KEY CHECK (id = 1), lo INTEGER, hi INTEGER);\n"
    "INSERT INTO acct_window(id, lo, hi)\n"
    "SELECT 1, min(a), max(b) FROM (\n"
    "  SELECT CASE WHEN s32 > 0 THEN s32 WHEN st32 > 0 THEN st32 END AS a,\n"
    "         CASE WHEN st32 > 0 AND el >= 0 THEN st32 + el WHEN st32 > 0 THEN st32\n"
    "              WHEN s32 > 0 THEN s32 END AS b\n"
    "  FROM (SELECT CASE WHEN submit > 0 AND submit <= 4294967295 THEN submit ELSE 0 END AS s32,\n"
    "               CASE WHEN start > 0 AND start <= 4294967295 THEN start ELSE 0 END AS st32,\n"
    "               CASE WHEN elapsed IS NOT NULL THEN max(min(elapsed, 2147483647), -2147483648)\n"
    "                    WHEN start > 0 AND start <= 4294967295 AND end_time > 0\n"
    "                         AND end_time >= start THEN min(end_time - start, 2147483647)\n"
    "                    ELSE -1 END AS el FROM jobs))\n"
    "WHERE EXISTS (SELECT 1 FROM jobs);\n";

/* Version 10 (issue 15): facts about this database file itself, by key:
 * "anon_key" the site's secret for --anonymize pseudonyms (32 random
 * bytes, reports/anon), "demo" what `capplan demo` made (data/demo/store_demo,
 * so that a later demo replaces only its own work). */
static const char v10[] =
    "CREATE TABLE site_meta(key TEXT PRIMARY KEY, value BLOB NOT NULL);\n";

/* Version 11 (issue 16): what the dashboard remembers between sessions,
 * one row per key; "scenario" is the scenario last shown, which the next
 * `capplan tui` without --scenario opens on. */
static const char v11[] =
    "CREATE TABLE dashboard_state(key TEXT PRIMARY KEY, value TEXT NOT NULL,\n"
    "  at INTEGER NOT NULL);\n";


/* Version 12 (issue 17): the GPU catalog, what one could buy, for the
 * report's recommendation (data/ingest/catalog.c): per model its memory (GiB),
 * speed against the reference GPU, board power (W) and price of one GPU
 * in currency (NULL: unknown). */
static const char v12[] =
    "CREATE TABLE gpu_catalog(model TEXT PRIMARY KEY, mem_gib REAL NOT NULL,\n"
    "  relative_speed REAL NOT NULL, tdp_w REAL, price REAL, currency TEXT NOT NULL,\n"
    "  import_id INTEGER);\n";


/* Version 13 (issue 18): who does what research. people.name is the name
 * papers write (roster column `name`), aliases other spellings
 * (';'-separated). papers: publications with their text (title, venue,
 * keywords, abstract; from BibTeX or the research CSV), one row per
 * (year, title); paper_authors: each paper's authors in order, as written
 * (LaTeX made plain). Authors are matched to people when read, so a roster
 * imported later still counts (data/store/store_research.c). */
static const char v13[] =
    "ALTER TABLE people ADD COLUMN name TEXT;\n"
    "ALTER TABLE people ADD COLUMN aliases TEXT;\n"
    "CREATE TABLE papers(id INTEGER PRIMARY KEY, year INTEGER NOT NULL, title TEXT NOT NULL,\n"
    "  venue TEXT, keywords TEXT, abstract TEXT, bibkey TEXT, import_id INTEGER,\n"
    "  UNIQUE(year, title));\n"
    "CREATE TABLE paper_authors(paper_id INTEGER NOT NULL, pos INTEGER NOT NULL,\n"
    "  name TEXT NOT NULL, PRIMARY KEY(paper_id, pos)) WITHOUT ROWID;\n";

/* Version 14 (issue 13, model v2): scenario keys of model v1. A purchase of
 * memory class C (purchase.C.yK) becomes a purchase of the inventory's most
 * common model of that class (purchase.MODEL.yK, same number of GPUs: now
 * counted at the model's relative speed), its reason noting the old key;
 * share and burst (replaced by one pool per group, in GPU-eq) and purchases
 * of a class with no model are dropped, each recorded in scenario_edits
 * (new_value NULL, the reason saying why). */
static const char v14[] =
    "INSERT INTO scenario_edits(scenario_id, key, group_name, old_value, new_value, measured,\n"
    "  label, reason, who, at)\n"
    "SELECT scenario_id, key, group_name, value, NULL, measured, label,\n"
    "  'model v2 has no ' || key || ': dropped (set pool=GPU-EQ, purchase.MODEL.yK=N)',\n"
    "  'capplan', CAST(strftime('%s', 'now') AS INTEGER) FROM scenario_params\n"
    "  WHERE key IN ('share', 'burst');\n"
    "DELETE FROM scenario_params WHERE key IN ('share', 'burst');\n"
    "UPDATE scenario_params SET key = 'purchase.' || (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib <= 24 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) || substr(key, 12),\n"
    "  reason = coalesce(reason || ' ', '') || '(model v2: was ' || key || ')'\n"
    "  WHERE key GLOB 'purchase.24.y*' AND (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib <= 24 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) IS NOT NULL;\n"
    "UPDATE scenario_params SET key = 'purchase.' || (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib > 24 AND i.gpu_mem_gib <= 48 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) || substr(key, 12),\n"
    "  reason = coalesce(reason || ' ', '') || '(model v2: was ' || key || ')'\n"
    "  WHERE key GLOB 'purchase.48.y*' AND (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib > 24 AND i.gpu_mem_gib <= 48 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) IS NOT NULL;\n"
    "UPDATE scenario_params SET key = 'purchase.' || (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib > 48 AND i.gpu_mem_gib <= 80 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) || substr(key, 12),\n"
    "  reason = coalesce(reason || ' ', '') || '(model v2: was ' || key || ')'\n"
    "  WHERE key GLOB 'purchase.80.y*' AND (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib > 48 AND i.gpu_mem_gib <= 80 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) IS NOT NULL;\n"
    "UPDATE scenario_params SET key = 'purchase.' || (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib > 80 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) || substr(key, 13),\n"
    "  reason = coalesce(reason || ' ', '') || '(model v2: was ' || key || ')'\n"
    "  WHERE key GLOB 'purchase.80+.y*' AND (SELECT i.gpu_model FROM inventory i WHERE i.gpu_mem_gib > 80 GROUP BY i.gpu_model ORDER BY sum(i.gpus) DESC, i.gpu_model LIMIT 1) IS NOT NULL;\n"
    "INSERT INTO scenario_edits(scenario_id, key, group_name, old_value, new_value, measured,\n"
    "  label, reason, who, at)\n"
    "SELECT scenario_id, key, group_name, value, NULL, measured, label,\n"
    "  'model v2: no inventory model of this class for ' || key || ': dropped',\n"
    "  'capplan', CAST(strftime('%s', 'now') AS INTEGER) FROM scenario_params\n"
    "  WHERE key GLOB 'purchase.24.y*' OR key GLOB 'purchase.48.y*' OR key GLOB 'purchase.80.y*'\n"
    "     OR key GLOB 'purchase.80+.y*';\n"
    "DELETE FROM scenario_params WHERE key GLOB 'purchase.24.y*' OR key GLOB 'purchase.48.y*'\n"
    "  OR key GLOB 'purchase.80.y*' OR key GLOB 'purchase.80+.y*';\n";

/* Version 15 (issue 14): the span of the jobs each import brought, first
 * and last submission (epoch seconds UTC; NULL: no job with a known one),
 * kept at import (data/ingest/import.c) for the report's provenance. Imports
 * already recorded get it from the jobs still attributed to them (the
 * jobs they added or last updated). */
static const char v15[] =
    "ALTER TABLE imports ADD COLUMN first_submit INTEGER;\n"
    "ALTER TABLE imports ADD COLUMN last_submit INTEGER;\n"
    "UPDATE imports SET first_submit = s.lo, last_submit = s.hi\n"
    "FROM (SELECT import_id, min(submit) AS lo, max(submit) AS hi FROM jobs\n"
    "      WHERE submit > 0 AND import_id IS NOT NULL GROUP BY import_id) AS s\n"
    "WHERE s.import_id = imports.id;\n";

/* Version 16 (issue 20): what `capplan status` prints about the jobs, kept
 * per cluster as jobs are written (data/store/store.c), so that status never
 * scans the jobs table: jobs (final attempts), attempts, the first
 * submission (> 0) and the last one. Filled here from the jobs a database
 * already holds; `capplan check` compares it with the jobs table. */
static const char v16[] =
    "CREATE TABLE job_counts(cluster_id INTEGER PRIMARY KEY, jobs INTEGER NOT NULL DEFAULT 0,\n"
    "  attempts INTEGER NOT NULL DEFAULT 0, first_submit INTEGER, last_submit INTEGER);\n"
    "INSERT INTO job_counts(cluster_id, jobs, attempts, first_submit, last_submit)\n"
    "SELECT cluster_id, sum(final = 1), count(*), min(CASE WHEN submit > 0 THEN submit END),\n"
    "  max(submit) FROM jobs GROUP BY cluster_id;\n";

/* Version 17 (issue 20): the statistics' aggregates, kept by the import
 * (data/store/store_stats.c): one row a month (yyyymm) of cells, histograms and
 * the hour-of-week heat map as core/stats writes them; month 0 holds the
 * fingerprint of the jobs they describe. Empty here: the first `capplan
 * stats` builds them from the jobs a database already holds. */
static const char v17[] =
    "CREATE TABLE stats_agg(month INTEGER PRIMARY KEY, data BLOB NOT NULL);\n";

/* Version 18's planning record: a final attempt with a user, a run time
 * and GPUs or CPUs (data/store/store_blocks.c says the same). */
#define PLAN_REC                                                                               \
    "final = 1 AND user_id IS NOT NULL AND coalesce(elapsed, end_time - start) IS NOT NULL " \
    "AND (gpus > 0 OR ncpus > 0)"

/* Version 18 (issue 13 speed, issue 20 item 3): the planner's compact copy
 * of the jobs (data/store/store_blocks.c): per block of 4096 rowids its planning
 * records (final attempts with a user, a run time and GPUs or CPUs) packed
 * in one BLOB by capplan_block_pack, their number and first and last start.
 * Triggers mark the block of an updated or deleted job stale; rows above
 * built_max came after the last sync. Filled here from the jobs a database
 * already holds; running it again (a test winding user_version back) fills
 * it again. A cache: deleting its rows is safe (readers then read the jobs
 * table). */
static const char v18[] =
    "CREATE TABLE IF NOT EXISTS job_blocks(block INTEGER PRIMARY KEY, n INTEGER NOT NULL,\n"
    "  lo INTEGER, hi INTEGER, data BLOB NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS job_blocks_stale(block INTEGER PRIMARY KEY);\n"
    "CREATE TABLE IF NOT EXISTS job_blocks_state(id INTEGER PRIMARY KEY CHECK (id = 1),\n"
    "  built_max INTEGER NOT NULL);\n"
    "CREATE TRIGGER IF NOT EXISTS job_blocks_update AFTER UPDATE ON jobs BEGIN\n"
    "  INSERT OR IGNORE INTO job_blocks_stale(block) VALUES (old.id >> 12);\n"
    "  INSERT OR IGNORE INTO job_blocks_stale(block) VALUES (new.id >> 12);\n"
    "END;\n"
    "CREATE TRIGGER IF NOT EXISTS job_blocks_delete AFTER DELETE ON jobs BEGIN\n"
    "  INSERT OR IGNORE INTO job_blocks_stale(block) VALUES (old.id >> 12);\n"
    "END;\n"
    "DELETE FROM job_blocks;\n"
    "DELETE FROM job_blocks_stale;\n"
    "INSERT INTO job_blocks(block, n, lo, hi, data)\n"
    "SELECT id >> 12,\n"
    "  count(*) FILTER (WHERE " PLAN_REC "),\n"
    "  min(start) FILTER (WHERE " PLAN_REC "),\n"
    "  max(start) FILTER (WHERE " PLAN_REC "),\n"
    "  capplan_block_pack(id, user_id, account_id, cluster_id, gpu_type, start, submit,\n"
    "    eligible, coalesce(elapsed, end_time - start), gpus, ncpus,\n"
    "    CASE WHEN gpu_mem_source > 0 THEN gpu_mem_gib END) FILTER (WHERE " PLAN_REC ")\n"
    "FROM jobs GROUP BY id >> 12;\n"
    "INSERT OR REPLACE INTO job_blocks_state(id, built_max)\n"
    "  VALUES (1, coalesce((SELECT max(id) FROM jobs), 0));\n";

/* Version 19 (issue 20 item 3, issue 14 item 15): the planner's cache
 * (data/plan/plan_cache.c): the rolling backtest, the fit at the window's end and
 * the past years, keyed by everything they are computed from; the jobs by
 * plan_cache_gen, which triggers bump whenever a job block is written or
 * removed (every sync after a change of jobs). A cache: deleting its rows
 * is safe. */
static const char v19[] =
    "CREATE TABLE IF NOT EXISTS plan_cache(key TEXT PRIMARY KEY, data BLOB NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS plan_cache_gen(id INTEGER PRIMARY KEY CHECK (id = 1),\n"
    "  gen INTEGER NOT NULL);\n"
    "INSERT OR IGNORE INTO plan_cache_gen(id, gen) VALUES (1, 0);\n"
    "CREATE TRIGGER IF NOT EXISTS plan_cache_blocks_insert AFTER INSERT ON job_blocks BEGIN\n"
    "  UPDATE plan_cache_gen SET gen = gen + 1 WHERE id = 1;\n"
    "END;\n"
    "CREATE TRIGGER IF NOT EXISTS plan_cache_blocks_update AFTER UPDATE ON job_blocks BEGIN\n"
    "  UPDATE plan_cache_gen SET gen = gen + 1 WHERE id = 1;\n"
    "END;\n"
    "CREATE TRIGGER IF NOT EXISTS plan_cache_blocks_delete AFTER DELETE ON job_blocks BEGIN\n"
    "  UPDATE plan_cache_gen SET gen = gen + 1 WHERE id = 1;\n"
    "END;\n"
    "DELETE FROM plan_cache;\n";

/* Version 20 (issue 20 items 4 and 5): the runs' aggregate of the energy
 * tables (data/store/store_policy_agg.c): one row, the cells core/policy packs
 * and the fingerprint of the jobs, roster, sites and carbon series they
 * describe. A cache: built by the first replay that finds it absent or
 * stale; deleting the row is safe. */
static const char v20[] =
    "CREATE TABLE IF NOT EXISTS policy_agg(id INTEGER PRIMARY KEY CHECK (id = 1),\n"
    "  fingerprint TEXT NOT NULL, data BLOB NOT NULL);\n";

/* Version 21 (issue 32): no paper lost. A paper is one per (year, title,
 * authors_key), authors_key its authors' name keys (core/names) sorted and
 * '|'-joined: the same title and year by other authors is another paper
 * (rows of one paper spelled differently are merged when read, by shared
 * authors, in data/store/store_research.c). paper_sources: the files
 * (base names) that list each paper, which tell same-name people apart by
 * group. Papers of earlier versions (one per year and title) get the key
 * '' here and their real key from the next `import pubs`
 * (store_pubs_new), which SQL cannot compute. Runs again safely on a
 * database wound back to an earlier version. */
static const char v21[] =
    "DROP TABLE IF EXISTS papers_v21;\n"
    "CREATE TABLE papers_v21(id INTEGER PRIMARY KEY, year INTEGER NOT NULL, title TEXT NOT NULL,\n"
    "  venue TEXT, keywords TEXT, abstract TEXT, bibkey TEXT, import_id INTEGER,\n"
    "  authors_key TEXT NOT NULL DEFAULT '', UNIQUE(year, title, authors_key));\n"
    "INSERT INTO papers_v21(id, year, title, venue, keywords, abstract, bibkey, import_id,\n"
    "  authors_key) SELECT p.id, p.year, p.title, p.venue, p.keywords, p.abstract, p.bibkey,\n"
    "  p.import_id, '' FROM papers p;\n"
    "DROP TABLE papers;\n"
    "ALTER TABLE papers_v21 RENAME TO papers;\n"
    "CREATE TABLE IF NOT EXISTS paper_sources(paper_id INTEGER NOT NULL, source TEXT NOT NULL,\n"
    "  PRIMARY KEY(paper_id, source)) WITHOUT ROWID;\n"
    "INSERT OR IGNORE INTO paper_sources(paper_id, source) SELECT p.id, i.path FROM papers p\n"
    "  JOIN imports i ON i.id = p.import_id;\n";

/* Version 22 (issue 26 item 4): collect windows keyed by source and cluster
 * list (data/store/store_collect.c). The source of a window is the sacct
 * command as given to collect, its words joined by one blank ("sacct", "ssh
 * login2 sacct"): two slurmdbds collected into one database each keep their
 * own window. A table of its own (idempotent, as every migration must be
 * for the tests that wind user_version back) and the view collect_windows,
 * each window with its source; windows recorded before this version have
 * source '' and count for every source (what they meant then). */
static const char v22[] =
    "CREATE TABLE IF NOT EXISTS collect_sources(\n"
    "  collect_id INTEGER PRIMARY KEY REFERENCES collects(id), source TEXT NOT NULL);\n"
    "CREATE INDEX IF NOT EXISTS collect_sources_source ON collect_sources(source);\n"
    "CREATE VIEW IF NOT EXISTS collect_windows AS\n"
    "  SELECT c.id, c.clusters, c.since, c.until, c.import_id, c.at,\n"
    "         coalesce(s.source, '') AS source\n"
    "  FROM collects c LEFT JOIN collect_sources s ON s.collect_id = c.id;\n";

/* Issue 28 item 2 (what was known when): a roster line's planned end (the
 * contract's or the expected graduation date, known in advance) beside its
 * actual end; NULL when the roster does not give one. */
static const char v_planned_end[] = "ALTER TABLE people ADD COLUMN planned_end TEXT;\n";

/* Issue 29: a job's CPUs exactly, in thousandths, when its input gives a
 * fraction (Alibaba's cpu_milli 3152); NULL when ncpus (whole CPUs, a
 * fraction rounded up) is exact. CPU-hours read coalesce(cpu_milli / 1000.0,
 * ncpus) (STORE_CPUS_SQL). Jobs imported before keep their rounded CPUs
 * until imported again. And the runs not finished (RUNNING 2, SUSPENDED 3:
 * censored at their file's end), indexed apart for the line that says how
 * many there are (data/store/store_censored.c). */
static const char v_cpu_milli[] =
    "ALTER TABLE jobs ADD COLUMN cpu_milli INTEGER;\n"
    "CREATE INDEX IF NOT EXISTS jobs_unfinished ON jobs(state) WHERE state IN (2, 3);\n";

/* Issue 31 (an import costs what it reads): the planner's per-cut cache
 * (data/plan/plan_cache.c): each backtest cut's fit and forecasts, under the
 * key of everything but the jobs they are computed from, with the greatest
 * job id and the last edit (plan_job_edits.seq) they saw; an entry stays
 * good while every job added or edited since starts at or after its cut.
 * plan_job_edits: per deleted job, and per job updated in a column its
 * planning record reads (not its measured memory: no fit reads it), the
 * earliest start it had or has (the record's: start, else submit); 0 (every
 * entry stale) when the greatest id goes, which the next job may take again.
 * (cpu_milli: issue 29's exact CPUs, which the record reads once that
 * migration has run; SQLite takes a column not there yet in UPDATE OF.)
 * A cache: deleting its rows is safe. */
static const char v_cut_cache[] =
    "CREATE TABLE IF NOT EXISTS plan_cut_cache(cut INTEGER PRIMARY KEY, key TEXT NOT NULL,\n"
    "  upto INTEGER NOT NULL, edits INTEGER NOT NULL, data BLOB NOT NULL);\n"
    "CREATE TABLE IF NOT EXISTS plan_job_edits(seq INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    "  at INTEGER NOT NULL);\n"
    "CREATE TRIGGER IF NOT EXISTS plan_job_edits_update AFTER UPDATE OF user_id, account_id,\n"
    "  cluster_id, gpu_type, start, submit, eligible, elapsed, end_time, gpus, ncpus, cpu_milli,\n"
    "  final ON jobs BEGIN\n"
    "  INSERT INTO plan_job_edits(at) VALUES (min(coalesce(old.start, old.submit, 0),\n"
    "    coalesce(new.start, new.submit, 0)));\n"
    "END;\n"
    "CREATE TRIGGER IF NOT EXISTS plan_job_edits_delete AFTER DELETE ON jobs BEGIN\n"
    "  INSERT INTO plan_job_edits(at) VALUES (CASE\n"
    "    WHEN old.id > coalesce((SELECT max(id) FROM jobs), 0) THEN 0\n"
    "    ELSE coalesce(old.start, old.submit, 0) END);\n"
    "END;\n"
    "DELETE FROM plan_cut_cache;\n";

const char *const store_migrations[] = {v1,  v2,  v3,  v4,  v5,  v6,  v7,  v8,
                                        v9,  v10, v11, v12, v13, v14, v15, v16,
                                        v17, v18, v19, v20, v21, v22, v_planned_end,
                                        v_cpu_milli /* issue 29 */, v_cut_cache /* issue 31 */};
const int store_nmigrations = (int)(sizeof store_migrations / sizeof store_migrations[0]);
