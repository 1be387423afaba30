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
    },
  },
};
