// Section 'notifications' of the Chinese catalogue (checked against the English one).
import type { Catalogue } from '../types';
import type { notifications as en, notificationResources as enResources } from '../en/notifications';

export const notifications: Catalogue<typeof en> = {
  validation: {
    badRecipient: '“%{address}”不是有效的电子邮件地址（请输入如 ops@example.com 的地址，以逗号分隔）',
    emptyRecipient: '列表中有空项：请删除多余的逗号',
    tooManyRecipients: '收件人最多 %{max} 个',
  },
  mail: {
    subject: '%{period}报表“%{name}”：%{report}，%{from} 至 %{to}',
    intro: '附件是您订阅的“%{name}”在上一周期的报表“%{report}”。',
    report: '报表',
    period: '周期',
    periodValue: '%{from} 至 %{to}（%{zone}，含首尾两天）',
    fleets: '机群',
    allFleets: '全部机群',
    file: '附件',
    link: '已生成的报表',
    footer: '您收到此邮件，是因为您的地址是 RVM 控制台中此订阅的收件人（报表 › 报表通知）。',
    periods: { weekly: '每周', monthly: '每月' },
  },
  sendNow: {
    action: '立即发送',
    title: '立即发送“%{name}”？',
    confirmReport: '将立即生成上一周期的报表，并发送给所有收件人：%{recipients}。',
    confirmEvent: '将立即向所有收件人发送一封测试邮件，说明此规则会就哪些报警发送邮件：%{recipients}。',
    sending: '正在发送…',
    sent: '已发送给 %{smart_count} 位收件人 |||| 已发送给 %{smart_count} 位收件人',
  },
};

export const notificationResources: Catalogue<typeof enResources> = {
  reportNotification: {
    name: '报表通知',
    fields: {
      id: 'ID',
      name: '名称',
      report: '报表',
      period: '周期',
      recipients: '收件人邮箱',
      fleets: '机群（不选：全部）',
      format: '文件格式',
      language: '文件和邮件语言',
      enabled: '启用',
      lastStatus: '最近运行',
      lastProduced: '最近生成',
      nextDue: '下次生成',
      createTime: '创建时间',
      lastSent: '上次发送',
      lastResult: '上次结果',
      lastError: '上次发送失败的原因',
    },
    filters: {
      nameLike: '名称',
      report: '报表',
      period: '周期',
      recipientsLike: '收件人',
      enabled: '启用',
    },
    enums: {
      report: { volumes: '回收量', volumesDaily: '每日回收量', acceptedRejects: '接收/拒收数量', barcodeRejects: '条码拒收记录' },
      period: { weekly: '每周', monthly: '每月' },
      format: { xlsx: 'Excel（XLSX）', csv: 'CSV' },
      language: { en: '英文（English）', zh: '中文' },
      lastStatus: { due: '待生成', produced: '已生成，邮件待发', mailed: '已发送', skipped: '已跳过', failed: '失败' },
      lastResult: { sent: '已发送', failed: '失败' },
    },
  },
  mailOutbox: {
    name: '已发送邮件',
    fields: {
      id: 'ID',
      createdAt: '时间',
      recipient: '收件人',
      subject: '主题',
      status: '状态',
      sentAt: '邮件服务器接收时间',
      error: '错误',
      body: '正文（机密内容已隐去）',
    },
    filters: { createdFrom: '开始', createdTo: '结束', recipientLike: '收件人', subjectLike: '主题', status: '状态' },
    enums: { status: { sent: '已发送', failed: '失败', notSent: '未发送（无邮件服务器）' } },
  },
};
