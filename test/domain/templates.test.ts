import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createTemplate, listOrganizationTemplates, readTemplate, removeTemplate, updateTemplate } from '../../shared/domain/templates/templates';
import type { TableContext } from '../../shared/storage/dynamo';
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
  it('are created at the clock\'s time, and an update keeps created_at, stamps updated_at and changes only what it names', async () => {
    const orgId = await newOrg();
    const created = await createTemplate(at(T0), orgId, { name: 'Standup', description: 'Daily', sections: SECTIONS });
    expect(created).toEqual({ id: expect.stringMatching(/^tpl_/), name: 'Standup', description: 'Daily', sections: SECTIONS, created_at: T0.toISOString(), updated_at: T0.toISOString() });
    expect(await readTemplate(at(T0), orgId, created.id)).toEqual(created);

    const updated = await updateTemplate(at(T1), orgId, created.id, { description: 'Every morning' });
    expect(updated).toEqual({ ...created, description: 'Every morning', updated_at: T1.toISOString() });
    expect(await readTemplate(at(T1), orgId, created.id)).toEqual(updated);
  });

  it('are listed by name whatever its case, a name before the longer names it begins', async () => {
    const orgId = await newOrg();
    for (const name of ['beta', 'Alpha 2', 'alpha', 'Alpha!']) await createTemplate(at(T0), orgId, { name, description: '', sections: SECTIONS });
    const { templates, pagination } = await listOrganizationTemplates(at(T0), orgId, { page: 1, limit: 3 });
    // The index keys before issue 26, `<lower name>#<id>`, put 'alpha 2' and 'alpha!' first (' ' and '!' sort before '#').
    expect(templates.map((template) => template.name)).toEqual(['alpha', 'Alpha 2', 'Alpha!']);
    expect(pagination).toMatchObject({ page: 1, limit: 3, total: 4 });
    const second = await listOrganizationTemplates(at(T0), orgId, { page: 2, limit: 3 });
    expect(second.templates.map((template) => template.name)).toEqual(['beta']);
  });

  it('answer 404 once removed: a second remove, a read and an update', async () => {
    const orgId = await newOrg();
    const { id } = await createTemplate(at(T0), orgId, { name: 'Gone', description: '', sections: SECTIONS });
    await removeTemplate(at(T1), orgId, id);
    await expect(removeTemplate(at(T1), orgId, id)).rejects.toMatchObject(notFound);
    await expect(readTemplate(at(T1), orgId, id)).rejects.toMatchObject(notFound);
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
          if (command instanceof PutCommand) await removeTemplate(at(T1), orgId, id);
          return target.send(command);
        };
      },
    });
    const racing: TableContext = { ...db, client };
    await expect(updateTemplate({ db: racing, now: () => T1 }, orgId, id, { name: 'Renamed' })).rejects.toMatchObject(notFound);
    await expect(readTemplate(at(T1), orgId, id)).rejects.toMatchObject(notFound);
  });
});
