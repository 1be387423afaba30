// Section 'personnel' of the Chinese catalogue (checked against the English one).
import type { Catalogue } from '../types';
import type { personnel as en, personnelResources as enResources } from '../en/personnel';

const levels = { normal: '普通', advanced: '高级' } as const;
const actions = {
  emptyBins: '清空回收箱',
  clean: '清洁',
  viewCounters: '查看计数',
  clearAlarms: '清除告警',
  repair: '维修',
  calibrate: '校准传感器',
  changeSettings: '修改设置',
  exportLogs: '导出日志',
  restart: '重启',
} as const;

export const personnel: Catalogue<typeof en> = {
  tabs: { label: '服务人员', personnel: '人员', levels: '人员设置' },
  package: {
    title: '服务人员包',
    intro: '将所有已启用的人员及两个权限级别的设置放入一个包。密码仅以加盐哈希的形式传输。',
    name: '包名称',
    version: '版本',
    adaptedModels: '适配机型',
    adaptedModelsHint: '机型以逗号分隔',
    description: '描述',
    create: '创建包',
    preview: '内容',
    people: '%{smart_count} 人 |||| %{smart_count} 人',
    credential: '凭据',
    hashed: '加盐哈希',
    allowed: '在机器上允许的操作',
    created: '已创建包 %{name}（版本 %{version}）。',
    deploy: '下发',
    empty: '还没有已启用的服务人员：请先添加人员。',
  },
  deploy: {
    title: '服务人员下发',
    intro: '服务人员包和禁用名单包，以及各自最近一次下发。下发通过下发引擎将包发送到机器。',
    kind: '包',
    latest: '最近一次下发',
    none: '尚未下发',
    deploy: '下发',
    deployments: '下发记录',
    newPersonnel: '新建服务人员包',
    empty: '还没有服务人员包或禁用名单包。',
    machines: '%{total} 台机器中 %{applied} 台已应用',
  },
  bans: {
    makePackage: '禁用名单包',
    makeTitle: '生成禁用名单包',
    makeIntro: '生效中和尚未开始的禁用会放入一个包，该包替换其到达的机器上的禁用名单。',
    made: '已创建禁用名单包 %{name}，包含 %{smart_count} 条禁用。 |||| 已创建禁用名单包 %{name}，包含 %{smart_count} 条禁用。',
  },
  refusals: { banned: '已拒绝：被禁用' },
  sessions: { refusal: '拒绝', cardNo: '卡号', served: '已服务', personnel: '真实姓名', company: '公司', accessLevel: '权限级别' },
  levels,
  actions,
};

export const personnelResources: Catalogue<typeof enResources> = {
  servicePersonnel: {
    name: '服务人员',
    fields: {
      id: 'ID',
      loginName: '登录名',
      realName: '真实姓名',
      accessLevel: '权限级别',
      company: '公司',
      password: '密码',
      enabled: '启用',
      createTime: '创建时间',
      updateTime: '更新时间',
    },
    filters: { loginNameLike: '登录名', realNameLike: '真实姓名', accessLevel: '权限级别', companyLike: '公司', enabled: '启用' },
    enums: { accessLevel: levels },
    validation: {
      loginName: '只允许字母、数字和 . _ -',
      password: '密码不能包含空格',
    },
  },
  personnelAccessLevel: {
    name: '人员设置',
    fields: { id: 'ID', level: '权限级别', actions: '在机器上允许的操作', signOutMinutes: '空闲多少分钟后登出', description: '描述', updateTime: '更新时间' },
    filters: { level: '权限级别' },
    enums: { level: levels, actions },
    validation: { actions: '请从列表中选择操作' },
  },
  consumerBan: {
    name: '禁用',
    fields: {
      id: 'ID',
      consumerKind: '识别方式',
      consumerId: '用户 ID、卡号或兑换券',
      reason: '原因',
      startTime: '开始',
      endTime: '结束',
      state: '状态',
      creator: '创建人',
      createTime: '创建时间',
    },
    filters: { consumerIdLike: '用户 ID、卡号或兑换券', consumerKind: '识别方式', state: '状态', reasonLike: '原因' },
    enums: {
      consumerKind: { userId: '用户 ID', card: '卡', voucher: '兑换券' },
      state: { upcoming: '未开始', active: '生效中', ended: '已结束' },
    },
    actions: { makePackage: '生成禁用名单包' },
    validation: {
      consumerId: '不能包含空格',
      endAfterStart: '结束时间必须晚于开始时间',
      endInPast: '结束时间必须在将来',
      alreadyBanned: '该消费者已被禁用：请编辑已有的禁用',
    },
  },
};
