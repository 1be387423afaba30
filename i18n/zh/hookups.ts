// Section 'hookups' of the Chinese catalogue (checked against the English one).
import type { Catalogue } from '../types';
import type { hookups as en, hookupResources as enResources } from '../en/hookups';

export const hookups: Catalogue<typeof en> = {
  validation: {
    url: '请输入以 http:// 或 https:// 开头的地址',
    emailList: '请输入有效的电子邮件地址，以逗号分隔',
    events: '请选择本 API 的事件',
    vendorConnectEvents: '供应商连接应用直接回答机器，不接收事件',
  },
  permissions: { secret: '查看或轮换签名密钥', resend: '重发和重放消息' },
  secret: {
    show: '显示密钥',
    rotate: '轮换密钥',
    title: '%{name} 的签名密钥',
    once: '请立即复制：密钥只显示这一次。接收方用它验证 webhook-signature 头（Standard Webhooks）。',
    previous: '旧密钥在 %{until} 之前仍然有效。',
    copy: '复制',
    copied: '密钥已复制',
    close: '关闭',
    confirmRotate: '轮换 %{name} 的签名密钥？当前密钥在 24 小时内仍然有效。',
  },
  messages: {
    resend: '重发',
    confirmResend: '重新发送 %{smart_count} 条消息？ |||| 重新发送 %{smart_count} 条消息？',
    resent: '已重新排队 %{smart_count} 条消息 |||| 已重新排队 %{smart_count} 条消息',
    replay: '重放失败消息',
    replayTitle: '重新发送某时间段内所有失败的消息',
    replayFrom: '事件时间从',
    replayTo: '事件时间至',
    replayed: '已重新排队 %{smart_count} 条失败消息 |||| 已重新排队 %{smart_count} 条失败消息',
    cancel: '取消',
  },
  mail: {
    subject: '第三方应用 %{name} 已停用',
    body: '应用 %{name}（%{url}）自 %{since} 起超过 %{days} 天没有成功接收任何消息，已被停用。',
    action: '其消息正在等待。请修复接收端，然后在 API 中重新启用该应用；失败的消息可以重放。',
  },
};

const appLabels = (name: string) => ({
  name,
  fields: {
    id: 'ID',
    name: '名称',
    url: 'URL',
    apiType: 'API 类型',
    fleets: '车队（含子车队）',
    enabled: '启用',
    ownerEmails: '通知负责人（电子邮件；为空则通知创建者）',
    dockingTime: '对接时间',
    lastSuccessTime: '最近成功',
    failingSince: '失败开始于',
    secretPending: '密钥尚未显示',
    createdBy: '创建者',
  },
  filters: { nameLike: '名称', apiType: 'API 类型', urlLike: 'URL', enabled: '启用' },
  enums: { apiType: { standard: '标准', vendorConnect: '供应商连接', consumerSession: '消费者会话', binEmpty: '清箱', machineStatus: '机器状态' } },
});

const EVENTS = {
  'consumerSession.completed': '消费者会话完成',
  'bin.emptied': '回收箱已清空',
  'bin.full': '回收箱已满',
  'machine.statusChanged': '机器状态变化',
};

const subscriptionLabels = (name: string) => ({
  name,
  fields: { id: 'ID', appId: '第三方应用', events: '事件', fleets: '仅这些车队（为空：应用的全部车队）', enabled: '启用', createTime: '创建时间' },
  filters: { appId: '第三方应用', enabled: '启用' },
  enums: { events: EVENTS },
});

const SEND_STATUS = { notSent: '未发送', success: '成功', fail: '失败' };

const messageLabels = (name: string) => ({
  name,
  fields: {
    id: 'ID',
    messageId: '消息 ID',
    appId: '第三方应用',
    termNo: '设备 ID',
    rvmId: '设备',
    eventType: '事件',
    eventTime: '事件时间',
    status: '发送状态',
    attempts: '次数',
    lastSendTime: '最后发送时间',
    lastResponseStatus: '应答',
    lastResponseExcerpt: '应答内容',
    lastResponse: '最后应答',
    nextAttemptTime: '下次尝试',
    body: '消息',
  },
  filters: { status: '发送状态', appId: '第三方应用', rvmId: '设备', eventFrom: '事件时间从', eventTo: '事件时间至', messageId: '消息 ID', eventType: '事件' },
  enums: { status: SEND_STATUS, eventType: EVENTS },
});

export const hookupResources: Catalogue<typeof enResources> = {
  csThridApp: appLabels('消费者会话第三方应用'),
  ciThridApp: appLabels('回收第三方应用'),
  statusThridApp: appLabels('机器状态第三方应用'),
  csApi: subscriptionLabels('消费者会话 API 订阅'),
  ciApi: subscriptionLabels('回收 API 订阅'),
  statusApi: subscriptionLabels('机器状态 API 订阅'),
  csApiTransaction: messageLabels('消费者会话 API 记录'),
  ciApiTransaction: messageLabels('回收 API 记录'),
  statusApiTransaction: messageLabels('机器状态 API 记录'),
  tcRvmList: {
    name: '溯源码设备',
    fields: { id: 'ID', termNo: '设备 ID', fleetId: '车队', currentSts: '状态', schemeApp: '方案应用', redeemed: '已兑换', refused: '被拒绝', lastSessionTime: '最近会话' },
    filters: { termNoLike: '设备 ID', fleetId: '车队', currentSts: '状态' },
    enums: { currentSts: { Up: '运行', Offline: '离线', Down: '停机（停止服务）', Sleep: '休眠' } },
  },
  tcTransactionList: {
    name: '溯源码交易',
    fields: { id: 'ID', termNo: '设备 ID', rvmId: '设备', time: '时间', barcode: '代码', itemType: '物品类型', outcome: '结果', refund: '退款' },
    filters: { outcome: '结果', rvmId: '设备', timeFrom: '从', timeTo: '至', barcode: '代码' },
    enums: { outcome: { redeemed: '已兑换', alreadyRedeemed: '溯源码已兑换（102）', invalid: '无效溯源码（103）', missing: '缺少溯源码（101）' } },
  },
  notificationList: {
    name: 'API 通知',
    fields: { id: 'ID', time: '时间', channel: '渠道', target: '接收方', subject: '主题', status: '发送状态', attempts: '次数', detail: '详情', reference: '引用', label: '主题' },
    filters: { channel: '渠道', status: '发送状态', timeFrom: '从', timeTo: '至' },
    enums: { channel: { webhook: 'Webhook', vendorConnect: '供应商连接', reportMail: '报表邮件', alarmMail: '报警邮件' }, status: SEND_STATUS },
  },
};
