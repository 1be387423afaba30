// Section 'events' of the Chinese catalogue (checked against the English one).
import type { Catalogue } from '../types';
import type { events as en, eventResources as enResources } from '../en/events';
import { fleet } from './fleet';

export const events: Catalogue<typeof en> = {
  validation: {
    alarmCodeList: '请输入报警代码（如 am_code_PK_17），以逗号分隔',
    unknownAlarmCode: '每个报警代码都必须在报警目录中（am_code_PK_1 至 am_code_PK_70）',
    emailList: '请输入有效的电子邮件地址，以逗号分隔',
  },
  mail: {
    subjectRaised: '%{termNo} 发生报警：%{code} %{text}',
    subjectReminder: '第 %{seq} 次提醒，%{termNo} 报警仍未解除：%{code} %{text}',
    subjectCleared: '%{termNo} 报警已解除：%{code} %{text}',
    introRaised: '发生了一个报警。',
    introReminder: '该报警仍未解除（第 %{seq} 次提醒）。',
    introCleared: '该报警已解除。',
    machine: '回收机',
    address: '地址',
    alarm: '报警',
    raised: '发生时间',
    cleared: '解除时间',
    detail: '详情',
    rule: '通知规则',
    link: '事件历史',
    subjectTest: '报警通知规则“%{name}”的测试邮件',
    introTest: '这是在 RVM 控制台中用“立即发送”发出的测试邮件：并没有发生报警。当以下报警之一发生时，此规则的收件人会收到类似的报警邮件。',
    alarms: '报警',
    fleets: '机群',
    allFleets: '全部机群',
    reminders: '提醒',
    everyHours: '未解除时每 %{hours} 小时一次',
    never: '无',
    onClear: '解除时发送邮件',
    yes: '是',
    no: '否',
    rules: '事件通知',
  },
};

export const eventResources: Catalogue<typeof enResources> = {
  event: {
    name: '事件',
    fields: {
      id: 'ID',
      termNo: '回收机编号',
      rvmId: '回收机',
      fleetId: '机群',
      code: '报警',
      category: '类别',
      severity: '严重程度',
      raisedTime: '发生时间',
      clearedTime: '解除时间',
      duration: '持续时间',
      open: '未解除',
      detail: '详情',
    },
    filters: {
      code: '报警代码',
      fleetId: '机群',
      rvmId: '回收机',
      open: '仅未解除',
      raisedFrom: '发生时间自',
      raisedTo: '发生时间至',
      category: '类别',
      severity: '严重程度',
    },
    enums: { code: fleet.alarms, category: fleet.alarmCategories, severity: fleet.severities },
  },
  eventNotification: {
    name: '事件通知',
    fields: {
      id: 'ID',
      name: '名称',
      alarmCodes: '报警代码',
      fleets: '机群（不选：全部）',
      recipients: '收件人邮箱',
      reminderHours: '提醒间隔（小时）',
      notifyOnClear: '解除时发送邮件',
      enabled: '启用',
      createTime: '创建时间',
      lastSent: '上次发送',
      lastResult: '上次结果',
      lastError: '上次发送失败的原因',
    },
    // the alarm-code picker's texts: the fleet catalogue's wording
    enums: { alarmCodes: fleet.alarms, lastResult: { sent: '已发送', failed: '失败' } },
    filters: {
      nameLike: '名称',
      alarmCodesLike: '报警代码',
      recipientsLike: '收件人',
      enabled: '启用',
    },
  },
};
