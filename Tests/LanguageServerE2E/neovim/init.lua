-- A headless Neovim speaking to `loadaudit lsp` with its built-in client: the set-up of
-- docs/editors.md, then the test: the diagnostics of the open file, the quick fix of the raw spinner,
-- the file's safe fixes (source.fixAll.loadaudit), :write. Run by ./run (LOADAUDIT_BINARY, PROJECT).
local binary = os.getenv('LOADAUDIT_BINARY')
local project = os.getenv('PROJECT')

local function fail(message)
  io.stderr:write('neovim test: ' .. message .. '\n')
  vim.cmd('cquit 1')
end

-- The set-up (docs/editors.md): vim.lsp.start on Neovim 0.8+, start_client + buf_attach_client on 0.7.
local config = { name = 'loadaudit', cmd = { binary, 'lsp' }, root_dir = project }
local function attach(buffer)
  if vim.lsp.start then
    return vim.lsp.start(config, { bufnr = buffer })
  end
  local id = vim.lsp.start_client(config)
  vim.lsp.buf_attach_client(buffer, id)
  return id
end

local function loadaudit_diagnostics(buffer)
  return vim.tbl_filter(function(d) return d.source == 'loadaudit' end, vim.diagnostic.get(buffer))
end

local function code_actions(buffer, client, kinds, diagnostic)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buffer) },
    -- The diagnostic's line (as a person asks on it), else the whole file.
    range = diagnostic and { start = { line = diagnostic.lnum, character = 0 }, ['end'] = { line = diagnostic.lnum + 1, character = 0 } }
      or { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(buffer), character = 0 } },
    context = { diagnostics = diagnostic and { diagnostic.user_data.lsp } or {}, only = kinds },
  }
  if os.getenv('LSP_DEBUG') then io.stderr:write(vim.inspect(params) .. '\n') end
  local response = client.request_sync('textDocument/codeAction', params, 20000, buffer)
  if not response or response.err then fail('no code actions: ' .. vim.inspect(response)) end
  return response.result or {}
end

local function wait_for_diagnostics(buffer, count)
  local ok = vim.wait(60000, function() return #loadaudit_diagnostics(buffer) == count end, 50)
  if not ok then fail('expected ' .. count .. ' diagnostics, got ' .. vim.inspect(loadaudit_diagnostics(buffer))) end
end

vim.schedule(function()
  local buffer = vim.api.nvim_get_current_buf()
  local id = attach(buffer)
  local client = vim.lsp.get_client_by_id(id)
  if not vim.wait(30000, function() return client.initialized end, 50) then fail('the server did not initialize') end
  wait_for_diagnostics(buffer, 2)
  local spinner
  for _, d in ipairs(loadaudit_diagnostics(buffer)) do
    if d.code == 'raw-progress-view' or (d.user_data and d.user_data.lsp.code == 'raw-progress-view') then spinner = d end
  end
  if not spinner then fail('no raw-progress-view diagnostic') end
  local quickfixes = vim.tbl_filter(function(a) return a.title:find('replace') end, code_actions(buffer, client, { 'quickfix' }, spinner))
  if #quickfixes ~= 1 then fail('expected one quick fix, got ' .. vim.inspect(quickfixes)) end
  vim.lsp.util.apply_workspace_edit(quickfixes[1].edit, client.offset_encoding or 'utf-16')
  -- The change is sent; the one finding left is published for it.
  wait_for_diagnostics(buffer, 1)
  local all = code_actions(buffer, client, { 'source.fixAll.loadaudit' })
  if #all ~= 1 then fail('expected the fix-all action, got ' .. vim.inspect(all)) end
  vim.lsp.util.apply_workspace_edit(all[1].edit, client.offset_encoding or 'utf-16')
  vim.cmd('write')
  wait_for_diagnostics(buffer, 0)
  vim.lsp.stop_client(id)
  vim.wait(5000, function() return vim.lsp.client_is_stopped(id) end, 50)
  vim.cmd('qall!')
end)
