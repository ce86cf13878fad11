-- The product's own fixture servers in the operator's stdio command catalogue (the lab and
-- file-sandbox examples start from them). Idempotent: an operator's later changes (disabling
-- one) are kept, because an existing key is left alone.
INSERT INTO "instance_stdio_commands" ("key", "name", "description", "fixture", "enabled", "builtin")
VALUES
  ('paperclip.lab', 'Runtime lab (fixture)',
   'The product''s own lab MCP server: counters, slow and large results. Used by the lab example.',
   'lab', true, true),
  ('paperclip.fs-sandbox', 'File sandbox (fixture)',
   'The product''s own file-sandbox MCP server, confined to a directory inside its slot. Used by the file-sandbox example.',
   'fs-sandbox', true, true)
ON CONFLICT ("key") DO NOTHING;
--> statement-breakpoint
-- Templates made before the catalogue existed by installing the lab / file-sandbox examples
-- (`node --import …/tsx/… …/fixtures/mcp/serve.ts <fixture> --stdio`) now point at those
-- entries. Every other pre-catalogue template keeps catalog_command_id NULL and never starts.
UPDATE "tool_stdio_templates" t
SET "catalog_command_id" = c."id"
FROM "instance_stdio_commands" c
WHERE t."catalog_command_id" IS NULL
  AND jsonb_typeof(t."args") = 'array'
  AND jsonb_array_length(t."args") = 5
  AND t."args" ->> 0 = '--import'
  AND t."args" ->> 2 LIKE '%/fixtures/mcp/serve.ts'
  AND t."args" ->> 4 = '--stdio'
  AND c."key" = 'paperclip.' || (t."args" ->> 3)
  AND c."fixture" = t."args" ->> 3;
