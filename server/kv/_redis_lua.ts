/**
 * The Lua scripts `redisStore()` runs inside Redis (private to `server/kv/`).
 *
 * Layout under a namespace `{ns}:` (the braces keep every key in one Cluster
 * slot): `k:<encoded key>` is a hash `{ v = version, d = JSON text }`;
 * `index` is a sorted set of every encoded key at score 0, walked with
 * ZRANGEBYLEX for `list()`; `expiry` is a sorted set of the keys written with
 * an expiry, scored by when they lapse, so commits can drop lapsed keys from
 * `index`; `seq` is the counter every version is drawn from.
 *
 * @module
 */

/**
 * Checks versions, then applies mutations, all inside Redis.
 * KEYS: seq, index, expiry, then the checked keys, then the written keys.
 * ARGV: number of checks, length of the data key prefix, each check's
 * version ("" for absent), then per write: "s" or "d", JSON text, milliseconds to live ("0" for none).
 * Returns 0 when a check failed, -1 when it committed nothing to write, else the writes' version.
 */
export const COMMIT = `
local nc = tonumber(ARGV[1])
local plen = tonumber(ARGV[2])
for i = 1, nc do
  local v = redis.call('HGET', KEYS[3 + i], 'v')
  local want = ARGV[2 + i]
  if want == '' then
    if v then return 0 end
  elseif v ~= want then
    return 0
  end
end
local nw = #KEYS - 3 - nc
if nw == 0 then return -1 end
local version = redis.call('INCR', KEYS[1])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local a = 3 + nc
for j = 1, nw do
  local key = KEYS[3 + nc + j]
  local member = string.sub(key, plen + 1)
  if ARGV[a] == 's' then
    redis.call('HSET', key, 'v', version, 'd', ARGV[a + 1])
    local px = tonumber(ARGV[a + 2])
    if px > 0 then
      redis.call('PEXPIRE', key, px)
      redis.call('ZADD', KEYS[3], now + px, member)
    else
      redis.call('PERSIST', key)
      redis.call('ZREM', KEYS[3], member)
    end
    redis.call('ZADD', KEYS[2], 0, member)
  else
    redis.call('DEL', key)
    redis.call('ZREM', KEYS[2], member)
    redis.call('ZREM', KEYS[3], member)
  end
  a = a + 3
end
-- Drop a few lapsed keys from the index, so keys nobody lists again do not pile up there.
local prefix = string.sub(KEYS[4 + nc], 1, plen)
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 16)
for _, member in ipairs(lapsed) do
  if redis.call('EXISTS', prefix .. member) == 0 then
    redis.call('ZREM', KEYS[2], member)
  end
  redis.call('ZREM', KEYS[3], member)
end
return version
`;

/**
 * Lists live entries between two exclusive ZRANGEBYLEX bounds, dropping
 * index members whose key has expired.
 * KEYS: index. ARGV: min, max, "1" to reverse, limit ("0" for none), data key prefix.
 * Returns member, version, JSON text, member, version, ...
 */
export const LIST = `
local min, max, reverse = ARGV[1], ARGV[2], ARGV[3] == '1'
local limit = tonumber(ARGV[4])
local prefix = ARGV[5]
local out, stale = {}, {}
local offset = 0
local batch = 256
if limit > 0 and limit < batch then batch = limit end
while true do
  local members
  if reverse then
    members = redis.call('ZREVRANGEBYLEX', KEYS[1], max, min, 'LIMIT', offset, batch)
  else
    members = redis.call('ZRANGEBYLEX', KEYS[1], min, max, 'LIMIT', offset, batch)
  end
  for _, member in ipairs(members) do
    local h = redis.call('HMGET', prefix .. member, 'v', 'd')
    if h[1] then
      out[#out + 1] = member
      out[#out + 1] = h[1]
      out[#out + 1] = h[2]
      if limit > 0 and #out >= limit * 3 then break end
    else
      stale[#stale + 1] = member
    end
  end
  if #members < batch or (limit > 0 and #out >= limit * 3) then break end
  offset = offset + #members
end
for i = 1, #stale, 256 do
  redis.call('ZREM', KEYS[1], unpack(stale, i, math.min(i + 255, #stale)))
end
return out
`;
