BEGIN TRANSACTION;
CREATE TABLE classifier_cache (
            key TEXT PRIMARY KEY,
            answer TEXT NOT NULL,
            ts TEXT NOT NULL
        );
CREATE TABLE commands (
            id INTEGER PRIMARY KEY,
            timestamp TEXT NOT NULL,
            original_cmd TEXT NOT NULL,
            rtk_cmd TEXT NOT NULL,
            input_tokens INTEGER NOT NULL,
            output_tokens INTEGER NOT NULL,
            saved_tokens INTEGER NOT NULL,
            savings_pct REAL NOT NULL
        , exec_time_ms INTEGER DEFAULT 0, project_path TEXT DEFAULT '');
INSERT INTO "commands" VALUES(1,'2026-12-06T02:56:13.811037696+00:00','git status','rtk git status',13,9,4,3.07692307692307700497e+01,69,'/work/wt/c34');
INSERT INTO "commands" VALUES(2,'2026-12-06T02:56:13.839142314+00:00','ls -la','rtk ls -la',205,57,148,72.1951219512195,19,'/work/wt/c34');
INSERT INTO "commands" VALUES(3,'2026-12-06T02:56:14.015749909+00:00','git log -n 3','rtk git log -n 3',172,91,81,4.70930232558139536544e+01,124,'/work/wt/c34');
INSERT INTO "commands" VALUES(4,'2026-12-06T02:56:14.054302387+00:00','grep -rn def rtk/gain','rtk grep',1173,1173,0,0.0,7,'/work/wt/c34');
INSERT INTO "commands" VALUES(5,'2026-12-06T02:59:32.504679678+00:00','git status','rtk git status',153,56,97,6.33986928104575113689e+01,206,'/work/wt/c34');
CREATE TABLE engine_attribution (
            day TEXT NOT NULL,
            site TEXT NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            calls INTEGER NOT NULL DEFAULT 0,
            tokens_in INTEGER NOT NULL DEFAULT 0,
            tokens_out INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (day, site, kind, name)
        );
CREATE TABLE hook_decisions (
            id INTEGER PRIMARY KEY,
            timestamp TEXT NOT NULL,
            session_id TEXT NOT NULL,
            tool_use_id TEXT NOT NULL,
            project_path TEXT DEFAULT '',
            raw_cmd TEXT NOT NULL,
            decision TEXT NOT NULL,
            rewritten_cmd TEXT,
            rtk_version TEXT NOT NULL
        );
CREATE TABLE parse_failures (
            id INTEGER PRIMARY KEY,
            timestamp TEXT NOT NULL,
            raw_command TEXT NOT NULL,
            error_message TEXT NOT NULL,
            fallback_succeeded INTEGER NOT NULL DEFAULT 0
        );
CREATE INDEX idx_timestamp ON commands(timestamp);
CREATE INDEX idx_project_path_timestamp ON commands(project_path, timestamp);
CREATE INDEX idx_pf_timestamp ON parse_failures(timestamp);
CREATE INDEX idx_hook_decisions_tool_use_id ON hook_decisions(tool_use_id);
CREATE INDEX idx_hook_decisions_timestamp ON hook_decisions(timestamp);
COMMIT;
PRAGMA user_version = 2;
