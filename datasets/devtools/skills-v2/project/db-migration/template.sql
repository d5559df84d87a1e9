-- NNNN_short_name.sql
-- Purpose: <one line>
-- Locks: <none | brief ACCESS EXCLUSIVE on table_name>
-- Revert:
--   <SQL that undoes this migration>

BEGIN;

-- statements here

COMMIT;
