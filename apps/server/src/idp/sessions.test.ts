import { expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.ts';
import { purgeExpired } from './adapter.ts';
import { endOtherSessions, endOwnSession, listSessions } from './sessions.ts';
import * as idp from '../test/idp.ts';

const sessionOf = (accessToken: string) =>
  JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()).sid as string;

idp.describeIdp('sessions seen by their owner', (ctx) => {
  const user = DEMO_USERS.employee;

  it('records browser, address and start at sign-in, and "last active" at each refresh', async () => {
    const { tokens } = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const uid = sessionOf(tokens.body.access_token!);
    const before = (await listSessions(ctx.db, user.id)).sessions.find((s) => s.uid === uid);
    expect(before).toMatchObject({ clientAddress: '127.0.0.1', clients: ['portal'] });
    expect(before?.userAgent).toBeTruthy();

    await ctx.db.query(
      `update idp_session_details set last_active_at = now() - interval '10 minutes' where session_uid = $1`,
      [uid],
    );
    expect((await idp.refresh(ctx.idp, tokens.body.refresh_token!)).status).toBe(200);
    const after = (await listSessions(ctx.db, user.id)).sessions.find((s) => s.uid === uid)!;
    expect(Date.now() - after.lastActiveAt.getTime()).toBeLessThan(60_000);
    expect(after.startedAt.getTime()).toBe(before!.startedAt.getTime());
  });

  it('keeps the session alive for its idle time at each refresh, never beyond its maximum from the sign-in', async () => {
    const { tokens } = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const uid = sessionOf(tokens.body.access_token!);
    const expiry = async () => {
      const { rows } = await ctx.db.query<{ left: number | string }>(
        `select extract(epoch from expires_at - now()) as left from idp_payloads where model = 'Session' and uid = $1`,
        [uid],
      );
      return Number(rows[0]!.left);
    };
    const { ssoSessionIdle, ssoSessionMax } = ctx.idp.config.idp;
    await ctx.db.query(
      `update idp_payloads set expires_at = now() + interval '1 minute' where model = 'Session' and uid = $1`,
      [uid],
    );
    const first = await idp.refresh(ctx.idp, tokens.body.refresh_token!);
    expect(first.status).toBe(200);
    expect(Math.abs((await expiry()) - ssoSessionIdle)).toBeLessThan(30);

    // Signed in almost the maximum ago: the refresh extends it only up to that maximum.
    await ctx.db.query(
      `update idp_payloads set payload = jsonb_set(payload, '{loginTs}', to_jsonb($2::bigint))
       where model = 'Session' and uid = $1`,
      [uid, Math.floor(Date.now() / 1000) - ssoSessionMax + 120],
    );
    expect((await idp.refresh(ctx.idp, first.body.refresh_token!)).status).toBe(200);
    expect(Math.abs((await expiry()) - 120)).toBeLessThan(30);
  });

  it('refuses the refresh token of an ended session (invalid_grant) while the current one still refreshes', async () => {
    const laptop = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const phone = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const laptopSession = sessionOf(laptop.tokens.body.access_token!);

    expect(await endOwnSession(ctx.db, user.id, laptopSession)).toBe(true);
    const refused = await idp.refresh(ctx.idp, laptop.tokens.body.refresh_token!);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_grant');
    expect((await idp.refresh(ctx.idp, phone.tokens.body.refresh_token!)).status).toBe(200);
    expect((await listSessions(ctx.db, user.id)).sessions.map((s) => s.uid)).not.toContain(laptopSession);
    // Once ended it cannot be ended again, and nobody else's session can be ended through another identity.
    expect(await endOwnSession(ctx.db, user.id, laptopSession)).toBe(false);
    expect(await endOwnSession(ctx.db, DEMO_USERS.admin.id, sessionOf(phone.tokens.body.access_token!))).toBe(
      false,
    );
  });

  it('signs out everywhere else: only the kept session refreshes afterwards', async () => {
    const here = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const there = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    expect(
      await endOtherSessions(ctx.db, user.id, sessionOf(here.tokens.body.access_token!)),
    ).toBeGreaterThan(0);
    expect((await idp.refresh(ctx.idp, there.tokens.body.refresh_token!)).body.error).toBe('invalid_grant');
    expect((await idp.refresh(ctx.idp, here.tokens.body.refresh_token!)).status).toBe(200);
    expect((await listSessions(ctx.db, user.id)).total).toBe(1);
  });

  it('drops the details of a session once the session itself is gone (the clean-up job)', async () => {
    const { tokens } = await idp.signIn(ctx.idp, new idp.CookieJar(), user.email, DEMO_PASSWORD);
    const uid = sessionOf(tokens.body.access_token!);
    await ctx.db.query(`delete from idp_payloads where model = 'Session' and uid = $1`, [uid]);
    await purgeExpired(ctx.db);
    const { rows } = await ctx.db.query('select 1 from idp_session_details where session_uid = $1', [uid]);
    expect(rows).toHaveLength(0);
  });
});
