#include "data/store_schema.h"

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

const char *const store_migrations[] = {v1};
const int store_nmigrations = (int)(sizeof store_migrations / sizeof store_migrations[0]);
