import type { Catalogue } from '../types';
import type { resources as en } from '../en/resources';

export const resources: Catalogue<typeof en> = {
  account: {
    name: '许可账户',
    fields: {
      id: 'ID',
      licenseAccountName: '许可账户',
      businessUnit: '业务单元',
      contact: '联系人',
      userCount: '用户数',
      machineCount: '机器数量',
      fleetCount: '机群',
      createTime: '创建日期',
    },
    filters: { nameLike: '许可账户', businessUnitLike: '业务单元' },
  },
  user: {
    name: '用户',
    fields: {
      id: 'ID',
      realname: '真实姓名',
      name: '用户名',
      localAreaId: '运营商',
      phone: '电话',
      email: '电子邮箱',
      roles: '角色',
      licenseAccounts: '许可账户',
      enabled: '启用',
      password: '密码',
      confirmPassword: '确认密码',
      sysUserId: '创建人',
      createTime: '创建时间',
    },
    filters: {
      nameLike: '用户名',
      realnameLike: '真实姓名',
      emailLike: '电子邮箱',
      localAreaId: '运营商',
      enabled: '启用',
      createTimeFrom: '创建时间自',
      createTimeTo: '创建时间至',
    },
    actions: { resetPassword: '重置密码', disable: '停用', enable: '启用' },
  },
  role: {
    name: '角色',
    fields: { id: 'ID', name: '名称', description: '描述', permissions: '权限', createTime: '创建时间' },
    filters: { nameLike: '名称' },
  },
  permission: {
    name: '权限',
    fields: {
      id: 'ID',
      name: '名称',
      parentId: '上级',
      type: '类型',
      identifier: '标识',
      sort: '排序',
      description: '描述',
    },
    filters: { nameLike: '名称', identifierLike: '标识', type: '类型' },
    enums: { type: { directory: '目录', menu: '菜单', button: '按钮' } },
  },
};
