import { auditEntityLabel, type AuditEntityType } from '../../../src/domain/audit';
import { categoryLevelLabel, CATEGORY_LEVELS } from '../../../src/domain/category-levels';
import type { Category, Content, ServiceCode } from '../../../src/domain/entities';
import type { Audited } from './record-audit';

const entity = (type: AuditEntityType, id: string, name: string) => ({ type, id, label: auditEntityLabel(type, name) });

/** A category with one field per level price ('price.vip'), in shillings. */
export function auditedCategory(category: Category): Audited {
  return {
    entity: entity('category', category._id, category.name),
    record: {
      name: category.name,
      description: category.description ?? null,
      agent: category.user?.userName ?? null,
      price: Object.fromEntries(CATEGORY_LEVELS.map((level) => [level, category[level] ?? null])),
    },
  };
}

export function auditedServiceCode(code: ServiceCode): Audited {
  return {
    entity: entity('service-code', code._id, code.name),
    serviceCode: code.name,
    record: { name: code.name, description: code.description ?? null, category: code.category?.name ?? null },
  };
}

/** A content, named by its own name or else by its level and category ('Content VIP, Premier League Tips'). */
export function auditedContent(content: Content): Audited {
  const name = content.name || `${categoryLevelLabel(content.categoryLevel)}${content.category ? `, ${content.category.name}` : ''}`;
  return {
    entity: entity('content', content._id, name),
    record: {
      name: content.name ?? null,
      description: content.description ?? null,
      category: content.category?.name ?? null,
      categoryLevel: content.categoryLevel,
      message: content.message,
      active: content.active,
    },
  };
}

/** A user account; `passwordHash` is audited as `password`, recorded as changed and never its value. */
export function auditedUser(user: {
  id: string;
  userName: string;
  role: string;
  email: string | null;
  isAfcon: boolean;
  passwordHash: string;
  disabledAt: Date | null;
  twoFactorEnabledAt: Date | null;
}): Audited {
  return {
    entity: entity('user', user.id, user.userName),
    record: {
      userName: user.userName,
      role: user.role,
      email: user.email,
      isAfcon: user.isAfcon,
      password: user.passwordHash,
      disabled: user.disabledAt !== null,
      twoFactorEnabled: user.twoFactorEnabledAt !== null,
    },
  };
}

export function auditedSms(sms: { id: string; phoneNumber: string; categoryLevel?: string | null; message: string }): Audited {
  return {
    entity: entity('sms', sms.id, `to ${sms.phoneNumber}`),
    record: { phoneNumber: sms.phoneNumber, categoryLevel: sms.categoryLevel ?? null, message: sms.message },
  };
}

/** A call, named by its phone number and service code ('Transaction 256772000111 on *217*4#'). */
export function auditedTransaction(call: { id: string; phoneNumber: string; serviceCode: string }): Omit<Audited, 'record'> {
  return { entity: entity('transaction', call.id, `${call.phoneNumber} on ${call.serviceCode}`), serviceCode: call.serviceCode };
}
