// Section 'group' and 'payout' of the Chinese catalogue's resources (checked against the English one).
import type { Catalogue } from '../types';
import type { groupResources as en } from '../en/configurationGroups';

const methods = {
  loyaltyAccount: '会员账户',
  supermarket: '超市',
  receipt: '收据',
  octopus: '八达通',
  alipayHK: '支付宝香港',
  ticket: '票券',
  thirdPartyPayment: '第三方支付',
  donation: '捐赠',
} as const;

export const groupResources: Catalogue<typeof en> = {
  group: {
    name: '分组 |||| 分组',
    fields: {
      id: 'ID',
      name: '名称',
      kind: '分组对象',
      models: '机型',
      fleets: '机群',
      barcodes: '商品条码',
      description: '描述',
      updateTime: '更新时间',
    },
    filters: { nameLike: '名称', kind: '分组对象' },
    enums: { kind: { machines: '机器', products: '商品' } },
    validation: {
      name: '分组名称不能包含 * 或逗号',
      barcodes: '3 到 20 位数字的条码，以逗号分隔',
      repeated: '“%{value}”重复列出',
      machineMembers: '机器分组需要机型或机群',
      machinesOnly: '机器分组不含商品条码',
      productMembers: '商品分组需要商品条码',
      productsOnly: '商品分组不含机型或机群',
      namedByPayout: '有支付方式适用于分组“%{name}”：请先修改它们',
      namedByRefund: '有退款金额适用于分组“%{name}”：请先修改它们',
    },
  },
  payout: {
    name: '支付方式 |||| 支付方式',
    fields: {
      id: 'ID',
      machineGroup: '机器分组',
      method: '支付方式',
      enabled: '启用',
      minAmount: '最低金额',
      maxAmount: '最高金额',
      validityDays: '凭证有效期（天）',
      institutes: '捐赠机构',
      updateTime: '更新时间',
    },
    filters: { machineGroupLike: '机器分组', method: '支付方式', enabled: '启用' },
    enums: { method: methods },
    validation: {
      group: '机器分组名称，或 * 表示所有机器',
      amountRange: '最高金额必须大于最低金额',
      unknownGroup: '没有名为“%{name}”的分组',
      productGroup: '“%{name}”是商品分组：支付方式只适用于机器分组',
      validityVouchersOnly: '只有凭证（收据、超市、票券）才有有效期',
      institutesDonationOnly: '只有捐赠才有捐赠机构',
      institutesNeeded: '捐赠至少需要一个捐赠机构',
      unknownInstitute: '没有名为“%{name}”的捐赠机构',
    },
  },
};
