import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { deleteTemplate } from '../../shared/domain/templates/delete-template';
import { updateTemplate } from '../../shared/domain/templates/update-template';
import { createTemplate } from '../../shared/domain/templates/create-template';
import { getTemplate } from '../../shared/domain/templates/get-template';
import { listTemplates } from '../../shared/domain/templates/list-templates';
import type { TableContext } from '../../shared/storage/dynamo';
import { getOrganization } from '../../shared/storage/organizations';
import { getDefaultTemplate } from '../../shared/storage/templates';
import { localDeployment, seed, unique } from '../support/api';

/**
 * The template functions (shared/domain/templates) called directly against the emulator's
 * table with a fixed clock: timestamps, the exact name order of the list, and the 404 a
 * change gets when the template is gone, also when it goes between the read and the write.
 */
const { db } = localDeployment();
const T0 = new Date('2026-01-01T00:00:00.000Z');
const T1 = new Date('2026-01-02T00:00:00.000Z');
const at = (time: Date) => ({ db, now: () => time });
const SECTIONS = [{ title: 'Summary', prompt: 'Summarize the call.' }];
const notFound = { statusCode: 404, code: 'TEMPLATE_NOT_FOUND' };

async function newOrg(): Promise<string> {
  const orgId = `org_dtpl_${unique()}`;
  await seed(db, { orgs: [{ id: orgId, name: 'Templates' }] });
  return orgId;
}

describe('templates', () => {
  it("are created at the clock's time, and an update keeps created_at, stamps updated_at and changes only what it names", async () => {
    const orgId = await newOrg();
    const created = await createTemplate(at(T0), orgId, { name: 'Standup', description: 'Daily', sections: SECTIONS });
    expect(created).toEqual({
      id: expect.stringMatching(/^tpl_/),
      name: 'Standup',
      description: 'Daily',
      sections: SECTIONS,
      is_default: false,
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
    });
    expect(await getTemplate(at(T0), orgId, created.id)).toEqual(created);

    const updated = await updateTemplate(at(T1), orgId, created.id, { description: 'Every morning' });
    expect(updated).toEqual({ ...created, description: 'Every morning', updated_at: T1.toISOString() });
    expect(await getTemplate(at(T1), orgId, created.id)).toEqual(updated);
  });

  it('are listed by name whatever its case, a name before the longer names it begins', async () => {
    const orgId = await newOrg();
    for (const name of ['beta', 'Alpha 2', 'alpha', 'Alpha!'])
      await createTemplate(at(T0), orgId, { name, description: '', sections: SECTIONS });
    const { templates, pagination } = await listTemplates(at(T0), orgId, { page: 1, limit: 3 });
    // The index keys before the name-order keys, `<lower name>#<id>`, put 'alpha 2' and 'alpha!' first (' ' and '!' sort before '#').
    expect(templates.map((template) => template.name)).toEqual(['alpha', 'Alpha 2', 'Alpha!']);
    expect(pagination).toMatchObject({ page: 1, limit: 3, total: 4 });
    const second = await listTemplates(at(T0), orgId, { page: 2, limit: 3 });
    expect(second.templates.map((template) => template.name)).toEqual(['beta']);
  });

  it('answer 404 once removed: a second remove, a read and an update', async () => {
    const orgId = await newOrg();
    const { id } = await createTemplate(at(T0), orgId, { name: 'Gone', description: '', sections: SECTIONS });
    await deleteTemplate(at(T1), orgId, id);
    await expect(deleteTemplate(at(T1), orgId, id)).rejects.toMatchObject(notFound);
    await expect(getTemplate(at(T1), orgId, id)).rejects.toMatchObject(notFound);
    await expect(updateTemplate(at(T1), orgId, id, { name: 'Back' })).rejects.toMatchObject(notFound);
  });

  it('an update of a template removed between its read and its write is a 404, and does not bring it back', async () => {
    const orgId = await newOrg();
    const { id } = await createTemplate(at(T0), orgId, { name: 'Raced', description: '', sections: SECTIONS });
    // A table on which another request removes the template just before each put goes out.
    const client = new Proxy(db.client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: Parameters<typeof target.send>[0]) => {
          if (command instanceof PutCommand) await deleteTemplate(at(T1), orgId, id);
          return target.send(command);
        };
      },
    });
    const racing: TableContext = { ...db, client };
    await expect(updateTemplate({ db: racing, now: () => T1 }, orgId, id, { name: 'Renamed' })).rejects.toMatchObject(notFound);
    await expect(getTemplate(at(T1), orgId, id)).rejects.toMatchObject(notFound);
  });
});

describe('the default template', () => {
  /** Every template of the organization that says it is the default, and the one the organization names. */
  async function defaults(orgId: string) {
    const { templates } = await listTemplates(at(T1), orgId, { page: 1, limit: 100 });
    return {
      flagged: templates.filter((template) => template.is_default).map((template) => template.id),
      named: (await getOrganization(db, orgId))?.default_template_id,
      read: (await getDefaultTemplate(db, orgId))?.id,
    };
  }

  it('is the one created or patched with is_default: the previous one stops being it, stamped; false on it leaves none', async () => {
    const orgId = await newOrg();
    const first = await createTemplate(at(T0), orgId, { name: 'First', description: '', sections: SECTIONS, is_default: true });
    expect(first.is_default).toBe(true);
    expect(await defaults(orgId)).toEqual({ flagged: [first.id], named: first.id, read: first.id });

    const second = await createTemplate(at(T1), orgId, { name: 'Second', description: '', sections: SECTIONS, is_default: true });
    expect(await defaults(orgId)).toEqual({ flagged: [second.id], named: second.id, read: second.id });
    expect(await getTemplate(at(T1), orgId, first.id)).toEqual({ ...first, is_default: false, updated_at: T1.toISOString() });

    const back = await updateTemplate(at(T1), orgId, first.id, { is_default: true });
    expect(back).toEqual({ ...first, is_default: true, updated_at: T1.toISOString() });
    expect(await defaults(orgId)).toEqual({ flagged: [first.id], named: first.id, read: first.id });

    // Already the default: nothing else moves.
    await updateTemplate(at(T1), orgId, first.id, { is_default: true, name: 'First again' });
    expect(await defaults(orgId)).toEqual({ flagged: [first.id], named: first.id, read: first.id });
    // false on a template that is not the default changes nothing either.
    await updateTemplate(at(T1), orgId, second.id, { is_default: false });
    expect(await defaults(orgId)).toEqual({ flagged: [first.id], named: first.id, read: first.id });

    await updateTemplate(at(T1), orgId, first.id, { is_default: false });
    expect(await defaults(orgId)).toEqual({ flagged: [], named: undefined, read: undefined });
  });

  it('deleting the default leaves the organization without one', async () => {
    const orgId = await newOrg();
    const kept = await createTemplate(at(T0), orgId, { name: 'Kept', description: '', sections: SECTIONS });
    const chosen = await createTemplate(at(T0), orgId, { name: 'Chosen', description: '', sections: SECTIONS, is_default: true });
    await deleteTemplate(at(T1), orgId, chosen.id);
    expect(await defaults(orgId)).toEqual({ flagged: [], named: undefined, read: undefined });
    expect(await getTemplate(at(T1), orgId, kept.id)).toEqual(kept);
  });

  it('is one template whatever runs at once: six requests each making another one the default', async () => {
    const orgId = await newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await createTemplate(at(T0), orgId, { name: `Race ${i}`, description: '', sections: SECTIONS })).id);
    await Promise.all(ids.map((id) => updateTemplate(at(T1), orgId, id, { is_default: true })));
    const { flagged, named, read } = await defaults(orgId);
    expect(flagged).toHaveLength(1);
    expect(named).toBe(flagged[0]);
    expect(read).toBe(flagged[0]);
  });

  it('a change of the default that loses a race between its read and its write is planned again on fresh data', async () => {
    const orgId = await newOrg();
    const a = await createTemplate(at(T0), orgId, { name: 'A', description: '', sections: SECTIONS, is_default: true });
    const b = await createTemplate(at(T0), orgId, { name: 'B', description: '', sections: SECTIONS });
    const c = await createTemplate(at(T0), orgId, { name: 'C', description: '', sections: SECTIONS });
    // Just before B's first transaction goes out, another request makes C the default.
    let raced = false;
    const client = new Proxy(db.client, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: Parameters<typeof target.send>[0]) => {
          if (command instanceof TransactWriteCommand && !raced) {
            raced = true;
            await updateTemplate(at(T1), orgId, c.id, { is_default: true });
          }
          return target.send(command);
        };
      },
    });
    await updateTemplate({ db: { ...db, client }, now: () => T1 }, orgId, b.id, { is_default: true });
    expect(raced).toBe(true);
    expect(await defaults(orgId)).toEqual({ flagged: [b.id], named: b.id, read: b.id });
    expect((await getTemplate(at(T1), orgId, a.id)).is_default).toBe(false);
    expect((await getTemplate(at(T1), orgId, c.id)).is_default).toBe(false);
  });
});
